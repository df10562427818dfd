import * as assert from 'node:assert/strict';
import { FakeProvider } from '../../fixtures/fake-provider';
import { cli, newHome, opendev, workspace } from './cli-harness';

/**
 * `opendev -p` prints the final answer: on a terminal drawn as markdown, to a pipe exactly as the
 * model wrote it (scripts read it). The terminal is a real pseudoterminal (node-pty).
 */

const ANSWER = 'Exports of `math.ts`:\n\n| Name | Kind |\n|---|---|\n| PI | constant |\n| add | function |\n\n**Done.**';

describe('opendev -p: the answer as markdown', function () {
  this.timeout(120_000);
  const fake = new FakeProvider();
  let home: string;
  const env = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home });

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    home = newHome();
  });

  it('to a pipe: the markdown as written, no escapes', async () => {
    fake.enqueue({ text: ANSWER });
    const r = await opendev(['-p', 'list the exports'], env());
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${ANSWER}\n`);
  });

  it('on a terminal: drawn, with the table aligned in a box and bold in bold', async () => {
    fake.enqueue({ text: ANSWER });
    const { spawn } = await import('node-pty');
    const clean: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(OPENAI|ANTHROPIC|OPENDEV)_/.test(k) && k !== 'NO_COLOR') clean[k] = v;
    const pty = spawn(process.execPath, [cli, '-p', 'list the exports'], { cols: 100, rows: 30, cwd: workspace, env: { ...clean, ...env(), TERM: 'xterm-256color' } });
    let screen = '';
    pty.onData((d) => (screen += d));
    const code = await new Promise<number>((resolve) => pty.onExit((e) => resolve(e.exitCode)));
    assert.equal(code, 0, screen);
    // eslint-disable-next-line no-control-regex
    const text = screen.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r/g, '');
    assert.match(text, /┌──────┬──────────┐\n│ Name │ Kind     │\n├──────┼──────────┤\n│ PI   │ constant │\n│ add  │ function │\n└──────┴──────────┘/);
    assert.ok(screen.includes('\x1b[1mDone.\x1b[22m'), JSON.stringify(screen));
    assert.ok(screen.includes('\x1b[36mmath.ts\x1b[39m'));
    assert.equal(text.includes('|---|'), false);
  });
});
