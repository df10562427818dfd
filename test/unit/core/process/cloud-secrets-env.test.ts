// The clouds' credentials never reach a child process: run_command's `env` shows none of them, and
// the CLI takes them out of its own process.env while its settings still see them.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { holdSecretEnv, resetSecretEnvForTests } from '../../../../src/core/process/child-env';
import { runForeground } from '../../../../src/core/process/foreground-runner';
import { resolveCliSettings } from '../../../../src/cli/settings-from-env';
import { parseCliArgs } from '../../../../src/cli/args';

const SECRETS: Record<string, string> = {
  AZURE_OPENAI_API_KEY: 'azure-key-marker-71c2',
  AZURE_OPENAI_AD_TOKEN: 'entra-token-marker-71c2',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-marker-71c2',
  AWS_SESSION_TOKEN: 'aws-session-marker-71c2',
  AWS_BEARER_TOKEN_BEDROCK: 'bedrock-key-marker-71c2',
  GEMINI_API_KEY: 'gemini-key-marker-71c2',
  OPENROUTER_API_KEY: 'openrouter-key-marker-71c2',
  GOOGLE_OAUTH_ACCESS_TOKEN: 'google-token-marker-71c2',
  GOOGLE_APPLICATION_CREDENTIALS: '/home/u/.config/gcloud/sa-marker-71c2.json',
};

describe('cloud credentials and child processes', function () {
  this.timeout(30_000);
  const saved = new Map<string, string | undefined>();
  beforeEach(() => {
    for (const [name, value] of Object.entries({ ...SECRETS, AWS_ACCESS_KEY_ID: 'AKIAVISIBLEID', AWS_REGION: 'eu-west-1' })) {
      saved.set(name, process.env[name]);
      process.env[name] = value;
    }
  });
  afterEach(() => {
    resetSecretEnvForTests();
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    saved.clear();
  });

  it('a command the agent runs sees none of them (the region and the access key id stay)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opendev-cloud-env-'));
    try {
      const run = await runForeground({ command: 'env', cwd: dir, env: {}, idleMs: 10_000, absoluteMs: 20_000, killGraceMs: 500, headChars: 100_000, tailChars: 100_000 });
      assert.equal(run.exitCode, 0, run.output);
      assert.match(run.output, /^AWS_REGION=eu-west-1$/m, 'the command ran with the environment');
      assert.match(run.output, /^AWS_ACCESS_KEY_ID=AKIAVISIBLEID$/m);
      for (const [name, value] of Object.entries(SECRETS)) {
        assert.ok(!run.output.includes(value), `${name} reached the child`);
        assert.doesNotMatch(run.output, new RegExp(`^${name}=`, 'm'));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the CLI holds them out of process.env, and still builds Bedrock and Azure settings from them', () => {
    const env = holdSecretEnv();
    for (const name of Object.keys(SECRETS)) assert.equal(process.env[name], undefined, `${name} left in process.env`);
    const bedrock = resolveCliSettings({ options: parseCliArgs(['--provider', 'bedrock', '-p', 'x']), env, interactive: false }).settings;
    assert.equal(bedrock.apiKey, SECRETS.AWS_BEARER_TOKEN_BEDROCK);
    assert.deepEqual(bedrock.cloud, { awsRegion: 'eu-west-1', awsCredentials: { accessKeyId: 'AKIAVISIBLEID', secretAccessKey: SECRETS.AWS_SECRET_ACCESS_KEY, sessionToken: SECRETS.AWS_SESSION_TOKEN } });
    const azure = resolveCliSettings({ options: parseCliArgs(['--provider', 'azure-openai', '--azure-deployment', 'dep-1', '-p', 'x']), env, interactive: false }).settings;
    assert.equal(azure.apiKey, SECRETS.AZURE_OPENAI_API_KEY);
    assert.deepEqual(azure.cloud, { azureDeployment: 'dep-1', azureAdToken: SECRETS.AZURE_OPENAI_AD_TOKEN });
  });
});
