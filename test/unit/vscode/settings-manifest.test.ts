// The agent settings VS Code reads (opendev.*) are the ones package.json contributes, with the
// same defaults as the CLI's: a setting works in both hosts, and the Settings UI shows what the
// agent does when it is left alone.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EDITOR_SETTING_KEYS } from '../../../src/core/config/layered-settings';
import { BUILTIN_DEFAULTS } from '../../../src/core/config/merge-settings';
import { parseSettingsObject } from '../../../src/core/config/settings-object';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8'));
const properties = manifest.contributes.configuration.properties as Record<string, { default?: unknown; enum?: unknown[]; minimum?: number; maximum?: number }>;

describe('opendev.* settings in package.json', () => {
  it('contributes every agent setting the editor reads', () => {
    for (const key of EDITOR_SETTING_KEYS) assert.ok(properties[`opendev.${key}`], `opendev.${key} is contributed`);
  });

  it('contributes the built-in defaults, so the CLI and VS Code behave alike when nothing is set', () => {
    for (const [key, value] of Object.entries(BUILTIN_DEFAULTS)) {
      assert.deepEqual(properties[`opendev.${key}`]?.default, value, `opendev.${key}`);
    }
  });

  it('offers exactly the values the settings files accept for the cadence settings', () => {
    for (const key of ['thinkingCadence', 'sessionTitles'] as const) {
      const offered = properties[`opendev.${key}`]!.enum!;
      for (const value of offered) assert.deepEqual(parseSettingsObject({ [key]: value }, 'f').problems, [], `${key}: ${String(value)}`);
      assert.equal(parseSettingsObject({ [key]: 'sometimes' }, 'f').problems.length, 1);
    }
    for (const [section, key] of [['playbook', 'reflectEvery'], ['memory', 'summaryEvery']] as const) {
      const { minimum, maximum } = properties[`opendev.${section}.${key}`]!;
      assert.deepEqual(parseSettingsObject({ [section]: { [key]: minimum } }, 'f').problems, []);
      assert.deepEqual(parseSettingsObject({ [section]: { [key]: maximum } }, 'f').problems, []);
      assert.equal(parseSettingsObject({ [section]: { [key]: minimum! - 1 } }, 'f').problems.length, 1, `${section}.${key} below its minimum`);
    }
  });
  // The Settings UI validates each value against its schema, the default too: an empty default that
  // fails (a "format": "uri" on "") shows an error before the user typed anything.
  it('validates only what the user typed: every default passes its own schema, and a bad value does not', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const schemas = manifest.contributes.configuration.properties as Record<string, object>;
    for (const [key, schema] of Object.entries(schemas)) {
      const validate = ajv.compile(schema);
      assert.ok(validate((schema as { default?: unknown }).default), `${key}: its default fails its own schema: ${ajv.errorsText(validate.errors)}`);
    }
    const baseUrl = ajv.compile(schemas['opendev.baseUrl']!);
    assert.ok(baseUrl('http://localhost:11434/v1'));
    assert.equal(baseUrl('localhost:11434'), false, 'an address without its scheme is still flagged');
  });
});
