import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { awsCredentialsFrom } from '../../../../src/core/config/aws-credentials';
import { cloudPart } from '../../../../src/core/config/cloud-credentials';
import { loadLayeredSettings, projectSettingsFile } from '../../../../src/core/config/layered-settings';

describe('cloud settings', () => {
  let root: string;
  let home: string;
  let ws: string;
  const write = (file: string, value: unknown) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  };
  const load = (env: NodeJS.ProcessEnv = {}, projectTrusted = false) => loadLayeredSettings({ env, home, workspaceRoot: ws, projectTrusted, endpointConfirmed: () => true });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-cloud-settings-'));
    home = join(root, 'home');
    ws = join(root, 'ws');
    mkdirSync(home, { recursive: true });
    mkdirSync(ws, { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads azure.*, bedrock.* and vertex.* from a settings file, each value checked on its own', () => {
    write(join(home, 'settings.json'), { provider: 'vertex', azure: { apiVersion: '2025-04-01-preview', deployment: 'prod-gpt' }, bedrock: { region: 'Mars-1' }, vertex: { region: 'europe-west1', projectId: 'my-project-123', zone: 'x' } });
    const r = load();
    const v = r.effective.values;
    assert.deepEqual([v['azure.apiVersion'], v['azure.deployment'], v['vertex.region'], v['vertex.projectId']], ['2025-04-01-preview', 'prod-gpt', 'europe-west1', 'my-project-123']);
    assert.equal(v['bedrock.region'], undefined, 'a bad region costs only itself');
    assert.deepEqual(r.problems.map((p) => [p.kind, p.key]), [['invalid-value', 'bedrock.region'], ['unknown-key', 'vertex.zone']]);
    assert.deepEqual(cloudPart('vertex', v, {}), { azureApiVersion: '2025-04-01-preview', azureDeployment: 'prod-gpt', vertexRegion: 'europe-west1', vertexProjectId: 'my-project-123' });
  });

  it("reads the clouds' environment variables only for their own provider", () => {
    const env = { AWS_REGION: 'not a region', CLOUD_ML_REGION: 'us-east5', ANTHROPIC_VERTEX_PROJECT_ID: 'env-project-1', OPENAI_API_VERSION: '2024-10-21' };
    const openai = load(env);
    assert.deepEqual(openai.environmentProblems, [], 'AWS_REGION set for other tools is not our business');
    assert.equal(openai.effective.values['vertex.region'], undefined);
    const vertex = load({ ...env, OPENDEV_PROVIDER: 'vertex' });
    assert.deepEqual([vertex.effective.values['vertex.region'], vertex.effective.values['vertex.projectId']], ['us-east5', 'env-project-1']);
    assert.deepEqual(vertex.effective.sources['vertex.projectId'], { layer: 'environment', origin: 'ANTHROPIC_VERTEX_PROJECT_ID' });
    const bedrock = load({ ...env, OPENDEV_PROVIDER: 'bedrock' });
    assert.deepEqual(bedrock.environmentProblems.map((p) => p.variable), ['AWS_REGION']);
    const azure = load({ OPENDEV_PROVIDER: 'azure-openai', AZURE_OPENAI_ENDPOINT: 'https://res.openai.azure.com', OPENAI_API_VERSION: '2024-10-21' });
    assert.deepEqual([azure.effective.values.baseUrl, azure.effective.values['azure.apiVersion']], ['https://res.openai.azure.com', '2024-10-21']);
  });

  it("an untrusted project may not choose the deployment, region or project; a trusted one may", () => {
    write(join(home, 'settings.json'), { provider: 'azure-openai', azure: { deployment: 'mine' } });
    write(projectSettingsFile(ws), { azure: { deployment: 'theirs' }, vertex: { projectId: 'their-project' } });
    const untrusted = load();
    assert.equal(untrusted.effective.values['azure.deployment'], 'mine');
    assert.equal(untrusted.effective.values['vertex.projectId'], undefined);
    assert.deepEqual(untrusted.untrusted.map((u) => u.what), ['set azure.deployment to theirs', 'set vertex.projectId to their-project']);
    assert.equal(load({}, true).effective.values['azure.deployment'], 'theirs');
  });

  describe('AWS credentials', () => {
    it('come from the environment first, with the session token', () => {
      assert.deepEqual(awsCredentialsFrom({ AWS_ACCESS_KEY_ID: 'AKIA1', AWS_SECRET_ACCESS_KEY: 's1', AWS_SESSION_TOKEN: 't1' }, () => assert.fail('no file read')), { accessKeyId: 'AKIA1', secretAccessKey: 's1', sessionToken: 't1' });
    });

    it('else from the profile (AWS_PROFILE, else default) of the shared credentials file', () => {
      const file = join(root, 'credentials');
      write(file, '# comment\n[default]\naws_access_key_id = AKIADEF\naws_secret_access_key = sdef\n\n[work]\nAWS_ACCESS_KEY_ID=AKIAWORK\naws_secret_access_key= swork\naws_session_token =twork\n');
      assert.deepEqual(awsCredentialsFrom({ AWS_SHARED_CREDENTIALS_FILE: file }), { accessKeyId: 'AKIADEF', secretAccessKey: 'sdef' });
      assert.deepEqual(awsCredentialsFrom({ AWS_SHARED_CREDENTIALS_FILE: file, AWS_PROFILE: 'work' }), { accessKeyId: 'AKIAWORK', secretAccessKey: 'swork', sessionToken: 'twork' });
      assert.equal(awsCredentialsFrom({ AWS_SHARED_CREDENTIALS_FILE: file, AWS_PROFILE: 'sso-only' }), undefined);
      assert.equal(awsCredentialsFrom({ HOME: join(root, 'nobody') }), undefined, 'no file: none');
    });

    it('are read for Bedrock only', () => {
      const env = { AWS_ACCESS_KEY_ID: 'AKIA1', AWS_SECRET_ACCESS_KEY: 's1', AZURE_OPENAI_AD_TOKEN: 'entra' };
      assert.deepEqual(cloudPart('bedrock', {}, env), { awsCredentials: { accessKeyId: 'AKIA1', secretAccessKey: 's1' } });
      assert.deepEqual(cloudPart('azure-openai', {}, env), { azureAdToken: 'entra' });
      assert.equal(cloudPart('openai', {}, env), undefined);
    });
  });
});
