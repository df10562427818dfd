// /init through the real CLI (`dist/cli.js` in a child process): -p and the REPL, against the fake provider.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeProvider, lastUserText, type RecordedRequest, type ScriptedTurn } from '../../fixtures/fake-provider';
import { newHome, opendev } from './cli-harness';

const WRITTEN = '# OPENDEV.md\n\n## Commands\n- Test: `npm test`\n';
const OLD = '# Hand-written notes\nDo not lose these.\n';

describe('opendev CLI /init', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  let home: string;
  let ws: string;
  let subagentSteps: ScriptedTurn[];
  const env = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home, OPENDEV_PLAYBOOK_LEARN: '0', OPENDEV_DISABLE_REMOTE_MODELS: '1' });
  const isSubagent = (req: RecordedRequest) => JSON.stringify(req.body.messages?.[0] ?? '').includes('You are Project-Init');
  const actionCalls = () => fake.requests.filter((r) => (r.body.tools ?? []).length > 0);

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    home = newHome();
    ws = mkdtempSync(join(tmpdir(), 'opendev-cli-init-'));
    writeFileSync(join(ws, 'package.json'), JSON.stringify({ name: 'calc', scripts: { test: 'mocha' } }));
    subagentSteps = [];
    fake.setResponder((req) => {
      if ((req.body.tools ?? []).length === 0) return { text: '{}' };
      if (isSubagent(req)) return subagentSteps.shift() ?? { text: 'Done.' };
      if (!JSON.stringify(req.body.messages).includes('"role":"tool"')) {
        // The interactive session thinks first, so /init's prompt is not always the last user message.
        const prompts = (req.body.messages as Array<{ role: string; content: unknown }>).filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content));
        const task = prompts.map((p) => /\\"(Analyse this repository[^"\\]*)\\"/.exec(p)?.[1]).find(Boolean) ?? 'missing task';
        return { toolCalls: [{ name: 'spawn_subagent', arguments: { subagent_type: 'Project-Init', task } }] };
      }
      return { text: 'OPENDEV.md is written: overview and test command.' };
    });
  });
  afterEach(() => {
    rmSync(ws, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it('-p "/init" writes OPENDEV.md through the Project-Init subagent and prints the answer', async () => {
    subagentSteps = [
      { toolCalls: [{ name: 'write_file', arguments: { file_path: 'OPENDEV.md', content: WRITTEN } }] },
      { toolCalls: [{ name: 'task_complete', arguments: { summary: 'Wrote OPENDEV.md.', status: 'success' } }] },
    ];
    const r = await opendev(['-p', '/init', '-C', ws, '--approval', 'auto'], env());
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'OPENDEV.md is written: overview and test command.\n');
    assert.equal(readFileSync(join(ws, 'OPENDEV.md'), 'utf8'), WRITTEN);
    assert.ok(actionCalls().some(isSubagent), 'the subagent ran');
  });

  it('-p "/init" keeps an existing OPENDEV.md (no model call) and says how to replace it', async () => {
    writeFileSync(join(ws, 'OPENDEV.md'), OLD);
    const r = await opendev(['-p', '/init', '-C', ws, '--approval', 'auto'], env());
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /OPENDEV\.md already exists and was left as it is\. Run \/init --force to have it rewritten\./);
    assert.equal(readFileSync(join(ws, 'OPENDEV.md'), 'utf8'), OLD);
    assert.equal(actionCalls().length, 0);
  });

  it('the REPL asks before replacing: 2 (Keep it) leaves the file byte-identical; 1 (Rewrite it) lets the subagent edit it', async () => {
    writeFileSync(join(ws, 'OPENDEV.md'), OLD);
    const kept = await opendev(['-C', ws], env(), { input: '/init\n2\n/exit\n' });
    assert.equal(kept.code, 0, kept.stderr);
    assert.match(kept.stdout, /\[OPENDEV\.md\] OPENDEV\.md already exists \(\d+ bytes\)\. Should the Project-Init subagent rewrite it/);
    assert.match(kept.stdout, /1\) Rewrite it.*\n\s+2\) Keep it/);
    assert.match(kept.stdout, /OPENDEV\.md was left as it is\./);
    assert.equal(readFileSync(join(ws, 'OPENDEV.md'), 'utf8'), OLD);
    assert.equal(actionCalls().length, 0);

    subagentSteps = [
      { toolCalls: [{ name: 'read_file', arguments: { file_path: 'OPENDEV.md' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { file_path: 'OPENDEV.md', old_content: 'Do not lose these.\n', new_content: 'Do not lose these.\nTest with `npm test`.\n' } }] },
      { toolCalls: [{ name: 'task_complete', arguments: { summary: 'Updated.', status: 'success' } }] },
    ];
    const rewritten = await opendev(['-C', ws, '--approval', 'auto'], env(), { input: '/init\n1\n/exit\n' });
    assert.equal(rewritten.code, 0, rewritten.stderr);
    assert.equal(readFileSync(join(ws, 'OPENDEV.md'), 'utf8'), `${OLD}Test with \`npm test\`.\n`);
    const task = lastUserText(actionCalls().find(isSubagent)!);
    assert.match(task, /the user agreed to have it rewritten/);
  });
});
