import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMainAgent } from '../../../../src/core/agent/create-agent';
import { silentUI } from '../../../../src/core/ui';
import { FakeProvider, toolResults } from '../../../fixtures/fake-provider';

/** Hooks from the project's .opendev/settings.json wrap the agent's real tool calls. */
describe('hooks through the agent factory', function () {
  this.timeout(30_000);
  const fake = new FakeProvider();
  let workspace: string;
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    workspace = mkdtempSync(join(tmpdir(), 'opendev-hooks-'));
    mkdirSync(join(workspace, '.opendev'));
  });

  const agent = () =>
    createMainAgent({
      roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
      workspaceRoot: workspace,
      home: join(workspace, '.home'),
      approvalLevel: 'auto',
      projectTrusted: true, // the test's own hooks
    });

  it('a PreToolUse hook that exits 2 refuses the command, and the model reads why', async () => {
    writeFileSync(
      join(workspace, '.opendev/settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'cat > "$OPENDEV_PROJECT_DIR/hook-input.json"; echo "no shell today" >&2; exit 2' }] }],
        },
      }),
    );
    // A refused call gets the permission-recovery reminder; when the model gives up, it is nudged once more, then accepted.
    fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch ran.txt' } }] }, { text: 'Hmm.' }, { text: 'OK, no shell.' });
    const a = await agent();
    const result = await a.runTurn('touch a file', silentUI);
    a.dispose();
    assert.equal(result.text, 'OK, no shell.');
    assert.match(JSON.stringify(fake.requests[1]!.body.messages), /no shell today.*run_command `touch ran\.txt` was refused: permission denied/);
    assert.equal(existsSync(join(workspace, 'ran.txt')), false, 'the command never ran');
    const input = JSON.parse(readFileSync(join(workspace, 'hook-input.json'), 'utf8'));
    assert.equal(input.hook_event_name, 'PreToolUse');
    assert.equal(input.tool_name, 'run_command');
    assert.equal(input.tool_input.command, 'touch ran.txt');
  });

  it('a PreToolUse hook can rewrite the input (updatedInput)', async () => {
    const rewrite = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo rewritten' } } });
    writeFileSync(
      join(workspace, '.opendev/settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'run_command', hooks: [{ type: 'command', command: `echo '${rewrite}'` }] }] } }),
    );
    fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo original' } }] }, { text: 'done' });
    const a = await agent();
    await a.runTurn('run it', silentUI);
    a.dispose();
    const output = toolResults(fake.requests[1]!)[0]!.content;
    assert.match(output, /rewritten/);
    assert.doesNotMatch(output, /original/);
  });
});
