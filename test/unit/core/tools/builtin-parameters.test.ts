import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostPorts } from '../../../../src/core/host';
import { BUILTIN_PARAMETERS_FILE, deriveParameters } from '../../../../src/core/tools/builtin-parameters';
import { builtinTools } from '../../../../src/core/tools/builtin-tools';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { WebSession } from '../../../../src/core/web/web-session';

const repo = join(__dirname, '../../../../..');
const every = { symbols: {}, notebooks: {}, openExternal: async () => false } as unknown as HostPorts;

describe('built-in tool schemas made at build time', () => {
  it('dist/tool-parameters.json is what the tools’ zod schemas give now, byte for byte', () => {
    const built = readFileSync(join(repo, 'dist', BUILTIN_PARAMETERS_FILE), 'utf8');
    assert.equal(built, `${JSON.stringify(deriveParameters(builtinTools(every, new WebSession())))}\n`);
  });

  it('the model sees the same schemas with them as without them, for every kind of host', () => {
    const prebuilt = JSON.parse(readFileSync(join(repo, 'dist', BUILTIN_PARAMETERS_FILE), 'utf8')) as Record<string, Record<string, unknown>>;
    for (const host of [undefined, { openExternal: async () => true } as HostPorts, every]) {
      const tools = builtinTools(host, new WebSession());
      const withThem = new ToolRegistry();
      const without = new ToolRegistry();
      for (const tool of tools) {
        withThem.register(tool, prebuilt[tool.name]);
        without.register(tool);
      }
      assert.ok(tools.every((tool) => prebuilt[tool.name]), 'every built-in tool has one');
      assert.equal(JSON.stringify(withThem.schemas()), JSON.stringify(without.schemas()));
    }
  });
});
