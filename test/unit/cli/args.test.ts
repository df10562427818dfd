import * as assert from 'node:assert/strict';
import { parseCliArgs, UsageError } from '../../../src/cli/args';
import { settingsFromEnv, thinkingLevel } from '../../../src/cli/settings-from-env';

describe('CLI flags', () => {
  it('parses every flag, with defaults', () => {
    const o = parseCliArgs(['-p', 'do it', '-C', '/tmp', '--provider', 'anthropic', '-m', 'claude-x', '--openai-api', 'responses', '--approval', 'auto', '--thinking', 'high', '--output-format', 'stream-json', '--resume', 'abcd1234', '--max-iterations', '12', '-v', '--debug-file', 'run.log', '--allow-outside-workspace', '--allow-risky-commands', '--azure-deployment', 'dep-1', '--azure-api-version', '2025-04-01-preview', '--aws-region', 'eu-west-1', '--vertex-region', 'us-east5', '--vertex-project', 'my-project-1']);
    assert.deepEqual(
      { ...o },
      {
        prompt: 'do it',
        workingDir: '/tmp',
        provider: 'anthropic',
        model: 'claude-x',
        openaiApi: 'responses',
        approval: 'auto',
        thinking: 'high',
        outputFormat: 'stream-json',
        continue: false,
        resume: 'abcd1234',
        maxIterations: 12,
        azureDeployment: 'dep-1',
        azureApiVersion: '2025-04-01-preview',
        awsRegion: 'eu-west-1',
        vertexRegion: 'us-east5',
        vertexProject: 'my-project-1',
        verbose: true,
        debugFile: 'run.log',
        allowOutsideWorkspace: true,
        allowRiskyCommands: true,
        allowUnsandboxed: false,
        version: false,
        help: false,
      },
    );
    const d = parseCliArgs([]);
    assert.equal(d.approval, 'semi-auto');
    assert.equal(d.outputFormat, 'text');
    assert.equal(d.thinking, undefined);
    assert.deepEqual([d.allowOutsideWorkspace, d.allowRiskyCommands], [false, false]);
    assert.equal(parseCliArgs(['-c', '-p', 'x']).continue, true);
  });

  it('throws a UsageError that says how to fix a bad value', () => {
    assert.throws(() => parseCliArgs(['--approval', 'always']), (e: Error) => e instanceof UsageError && /--approval must be one of manual, semi-auto, auto \(got "always"\)/.test(e.message));
    assert.throws(() => parseCliArgs(['-p', '   ']), /--prompt is empty/);
    assert.throws(() => parseCliArgs(['--max-iterations', '5000']), /at most 1000/);
    assert.throws(() => parseCliArgs(['--continue=yes']), /--continue does not take a value/);
    assert.throws(() => parseCliArgs(['--allow-risky-commands']), /--allow-risky-commands needs -p/);
    assert.throws(() => parseCliArgs(['--debug-file']), /--debug-file needs a value/);
    assert.throws(() => parseCliArgs(['--openai-api', 'soap']), /--openai-api must be one of auto, chat, responses \(got "soap"\)/);
  });

  it('thinking: the flag, else OPENDEV_THINKING, else off for -p and medium interactively', () => {
    const o = parseCliArgs(['-p', 'x']);
    assert.equal(thinkingLevel(o, {}, false), 'off');
    assert.equal(thinkingLevel(o, {}, true), 'medium');
    assert.equal(thinkingLevel(o, { OPENDEV_THINKING: 'HIGH' }, false), 'high');
    assert.equal(thinkingLevel(parseCliArgs(['--thinking', 'low']), { OPENDEV_THINKING: 'high' }, true), 'low');
    assert.throws(() => thinkingLevel(o, { OPENDEV_THINKING: 'max' }, true), UsageError);
  });

  it('provider settings: flags over OPENDEV_* over defaults, keys and endpoints from the environment', () => {
    const env = { OPENDEV_PROVIDER: 'anthropic', OPENDEV_MODEL: 'claude-y', ANTHROPIC_API_KEY: 'ak', ANTHROPIC_BASE_URL: 'http://127.0.0.1:1/' };
    assert.deepEqual(settingsFromEnv(parseCliArgs([]), env), { provider: 'anthropic', model: 'claude-y', apiKey: 'ak', baseUrl: 'http://127.0.0.1:1/' });
    const flags = settingsFromEnv(parseCliArgs(['--provider', 'openai', '-m', 'gpt-x']), { ...env, OPENAI_API_KEY: 'ok' });
    assert.deepEqual([flags.provider, flags.model, flags.apiKey, flags.baseUrl], ['openai', 'gpt-x', 'ok', undefined]);
    assert.equal(settingsFromEnv(parseCliArgs([]), {}).model, 'gpt-4.1');
    assert.throws(() => settingsFromEnv(parseCliArgs([]), { OPENDEV_PROVIDER: 'mistral' }), /OPENDEV_PROVIDER="mistral" is not one of/);
    assert.throws(() => settingsFromEnv(parseCliArgs([]), { OPENAI_BASE_URL: 'not a url' }), /OPENAI_BASE_URL/);
    assert.equal(settingsFromEnv(parseCliArgs([]), { OPENDEV_CONTEXT_WINDOW: '32768' }).contextWindow, 32_768);
    assert.throws(() => settingsFromEnv(parseCliArgs([]), { OPENDEV_CONTEXT_WINDOW: 'lots' }), /OPENDEV_CONTEXT_WINDOW/);
  });
});
