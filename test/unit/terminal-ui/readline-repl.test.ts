import * as assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { join } from 'node:path';
import type { Agent } from '../../../src/core/agent/agent';
import { createMainAgent } from '../../../src/core/agent/create-agent';
import { startReadlineRepl } from '../../../src/terminal-ui/readline-repl';
import { FakeProvider, lastUserText } from '../../fixtures/fake-provider';
import { keystrokes, waitForScreen } from '../../helpers/terminal-screen';

const workspace = join(__dirname, '../../../../test/fixtures/workspace');
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]/g;

/** The shared terminal front end fed keystrokes, as a terminal (the VS Code pseudoterminal) sends them. */
function keyboard(agent: Agent) {
  const keys = new PassThrough();
  let written = '';
  const output = Object.assign(
    new Writable({
      decodeStrings: false,
      write(chunk: string | Buffer, _enc, done) {
        written += String(chunk);
        done();
      },
    }),
    { columns: 100 },
  );
  const repl = startReadlineRepl({ input: keys, output, terminal: true, agent, front: 'vscode' });
  const screen = () => written.replace(ANSI, '').replace(/\r\n/g, '\n');
  const waitFor = (pattern: RegExp, timeoutMs?: number) => waitForScreen(screen, pattern, timeoutMs);
  const type = (data: string) => {
    for (const key of keystrokes(data)) keys.write(key);
  };
  return { type, repl, screen, waitFor, raw: () => written };
}

describe('the readline front end (CLI and OpenDev terminal) driven by keystrokes', () => {
  const fake = new FakeProvider();
  let agent: Agent;
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(async () => {
    fake.reset();
    agent = await createMainAgent({
      roles: { action: { provider: 'openai', model: 'fake', apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
      workspaceRoot: workspace,
      thinkingLevel: 'off',
    });
  });
  afterEach(() => agent.dispose());

  it('edits the line (Ctrl+A, Ctrl+E, backspace, Ctrl+U), recalls history with the up arrow, and colours the prompt', async () => {
    fake.enqueue({ text: 'First.' }, { text: 'Second.' });
    const t = keyboard(agent);
    await t.waitFor(/› $/);
    assert.match(t.raw(), /\x1b\[36m› \x1b\[0m/, 'the prompt is cyan');
    t.type('garbage\x15'); // Ctrl+U: the whole line goes
    t.type('say hi');
    t.type('\x01please \x05!!\x7f'); // Ctrl+A, insert, Ctrl+E, "!!", backspace
    t.type('\r');
    await t.waitFor(/First\./);
    assert.equal(lastUserText(fake.requests[0]!), 'please say hi!');
    await t.waitFor(/First\.\n+› $/);
    t.type('\x1b[A\r'); // up arrow: the same line again
    await t.waitFor(/Second\./);
    assert.equal(lastUserText(fake.requests[1]!), 'please say hi!');
    t.type('/exit\r');
    assert.equal(await t.repl.done, 0);
  });

  it('Shift+Tab switches to plan mode and back, and the prompt shows it', async () => {
    const t = keyboard(agent);
    await t.waitFor(/› $/);
    t.type('half typed');
    t.type('\x1b[Z');
    await t.waitFor(/plan mode: OpenDev explores and writes a plan[^\n]*\nplan › half typed$/);
    assert.equal(agent.mode, 'plan');
    t.type('\x1b[Z');
    await t.waitFor(/normal mode \(Shift\+Tab: plan mode\)\n› half typed$/);
    assert.equal(agent.mode, 'normal');
    t.type('\x15/exit\r');
    assert.equal(await t.repl.done, 0);
  });

  it('Ctrl+C stops a slow answer; Ctrl+C twice at the prompt ends the session', async () => {
    fake.enqueue({ text: 'one two three four five six seven', chunkDelayMs: 400 });
    const t = keyboard(agent);
    await t.waitFor(/› $/);
    t.type('take your time\r');
    await t.waitFor(/one/);
    t.type('\x03');
    await t.waitFor(/\(stopped\)/);
    assert.doesNotMatch(t.screen(), /seven/);
    await t.waitFor(/\(stopped\)\n+› $/);
    t.type('\x03');
    await t.waitFor(/press Ctrl\+C again to exit/);
    t.type('\x03');
    assert.equal(await t.repl.done, 0);
  });

  it('Tab completes slash commands from the registry', async () => {
    const t = keyboard(agent);
    await t.waitFor(/› $/);
    t.type('/thin\t');
    await t.waitFor(/› \/thinking/);
    t.type('\r');
    await t.waitFor(/Thinking: off/);
    t.type('\x04'); // Ctrl+D on an empty line ends the input
    assert.equal(await t.repl.done, 0);
    assert.equal(fake.requests.length, 0, 'commands never reach the model');
  });
});
