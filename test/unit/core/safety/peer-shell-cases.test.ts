/**
 * The peer shell corpus (test/fixtures/peer/shell_cases/, vendored; missing files FAIL).
 *
 * 1. must_not_autoallow.json: through the real approval gate (run_command replaced by a recorder),
 *    no case runs without the user's consent at any level, and the destructive ones are refused
 *    outright by the danger rules, without asking.
 * 2. Agreement with each peer IN ITS OWN CONTEXT (peer-shell-context.ts turns its allow/deny lists
 *    or policy into our rules and level). The floors below are what we measured; the only cases we
 *    run where the peer would not are these deliberate choices:
 *
 * | case                       | peer  | ours  | why |
 * |----------------------------|-------|-------|-----|
 * | cline-cmd-030, -073        | block | allow | `npm install\nnpm run build` with `npm *` allowed: a newline separates commands like `;`, and each line is judged (Roo splits the same way). Without rules the level never approves several lines. |
 * | cline-cmd-066              | block | allow | `cat < input.txt` with `cat *` allowed: reading a file by redirection is no write (`cat input.txt` is allowed anyway). |
 * | codex-061, -062            | ask   | allow | `(ls)`, `ls \|\| (pwd && echo hi)` in Semi-Auto: a subshell only groups read-only commands. |
 *
 * Where we are stricter, it is mostly the danger rules (`rm -rf /` and `sudo` are refused where a
 * peer asks or, without configuration, allows), case-sensitive allow rules (`NPM TEST` is not
 * `npm test`), and the workspace boundary (`git log > /tmp/test` asks although Gemini's rule allows
 * redirection). "asks" counts cases we ask about where the peer refuses outright (Cline has no ask
 * state): a write by redirection a rule does not cover, `nc` (a built-in caution rule).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolDispatcher } from '../../../../src/core/agent/tool-dispatcher';
import { approvalGate } from '../../../../src/core/safety/approval-gate';
import type { ApprovalLevel } from '../../../../src/core/config/approval-level';
import { judgeCommand } from '../../../../src/core/safety/command-judge';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { runCommandTool } from '../../../../src/core/tools/run-command';
import type { Tool } from '../../../../src/core/tools/tool';
import type { UICallback } from '../../../../src/core/ui';
import { toolContext } from '../../../helpers/tool-context';
import { compare, peerFile, readPeerCases, type Agreement } from './peer-shell-context';

const LEVELS: ApprovalLevel[] = ['manual', 'semi-auto', 'auto'];
/** Deletes the root or home, runs as root, pipes into a shell, or opens a reverse shell. */
const DESTRUCTIVE = /\brm\s+-[a-z]*[rf][a-z]*\s+\/(?=$|[\s:)`'"])|\bsudo\b|\|\s*(?:ba)?sh\b|\/dev\/tcp\//;

const FLOORS: Record<string, number> = {
  'cline_command_permissions.json': 99,
  'roo_command_validation.json': 294,
  'codex_safe_and_dangerous.json': 68,
  'gemini_policy_shell.json': 25,
  'ALL_commands.json': 367,
};
const LOOSER_BY_CHOICE = new Set(['cline-cmd-030', 'cline-cmd-073', 'cline-cmd-066', 'codex-061', 'codex-062']);

describe('the peer shell corpus (test/fixtures/peer/shell_cases)', () => {
  let workspace: string;
  before(() => (workspace = mkdtempSync(join(tmpdir(), 'opendev-peer-shell-'))));
  after(() => rmSync(workspace, { recursive: true, force: true }));

  describe('must_not_autoallow.json', () => {
    const commands = readPeerCases<{ command: string }>('must_not_autoallow.json').map((c) => c.command);
    const ran: string[] = [];
    const recorder: Tool = { ...runCommandTool, run: async (args) => (ran.push((args as { command: string }).command), { ok: true, output: 'ran', summary: 'ran' }) };
    const registry = new ToolRegistry().register(recorder);
    const run = async (level: ApprovalLevel, command: string, ui: UICallback) => {
      const dispatcher = new ToolDispatcher(registry, approvalGate(registry, () => level));
      const [result] = await dispatcher.dispatch([{ id: 'c', name: 'run_command', arguments: JSON.stringify({ command }) }], toolContext({ workspaceRoot: workspace, ui }));
      return result!;
    };

    it('has the whole corpus', () => assert.equal(commands.length, 94));

    for (const level of LEVELS) {
      it(`${level}: no case runs without the user's consent (asked, or refused when nobody can answer)`, async () => {
        ran.length = 0;
        const unasked: string[] = [];
        for (const command of commands) {
          let asked = false;
          const ui: UICallback = { onTextDelta() {}, onToolStart() {}, onToolEnd() {}, requestApproval: async () => ((asked = true), { action: 'deny' }) };
          const result = await run(level, command, ui);
          if (result.ok || (!asked && result.errorKind !== 'permission')) unasked.push(command);
          const headless = await run(level, command, { onTextDelta() {}, onToolStart() {}, onToolEnd() {} });
          assert.equal(headless.errorKind, 'permission', JSON.stringify(command));
        }
        assert.deepEqual(unasked, []);
        assert.deepEqual(ran, [], 'nothing reached the shell');
      });
    }

    it('the destructive ones are refused outright by the danger rules, at every level, without asking', async () => {
      const destructive = commands.filter((c) => DESTRUCTIVE.test(c));
      assert.ok(destructive.length >= 25, `found ${destructive.length}`);
      for (const level of LEVELS) {
        for (const command of destructive) {
          const ui: UICallback = { onTextDelta() {}, onToolStart() {}, onToolEnd() {}, requestApproval: async () => assert.fail(`asked about ${JSON.stringify(command)}`) };
          const result = await run(level, command, ui);
          assert.equal(result.errorKind, 'permission', JSON.stringify(command));
          assert.match(result.output, /Refused by the danger rule/);
        }
      }
    });
  });

  describe('agreement with each peer in its own context', () => {
    const rows: string[] = [];
    after(() => {
      console.log(['', '    | peer file | cases | agree | stricter | asks (peer refuses) | looser | left out |', '    |---|---|---|---|---|---|---|', ...rows, ''].join('\n'));
    });

    for (const name of Object.keys(FLOORS)) {
      it(`${name}: at least ${FLOORS[name]} cases agree; nothing runs unasked that the peer refuses, except the documented choices`, () => {
        const file = peerFile(name);
        const tally: Record<Agreement, number> = { agree: 0, stricter: 0, asks: 0, looser: 0 };
        const looser: string[] = [];
        for (const c of file.cases) {
          const verdict = judgeCommand(c.command, { rules: c.rules, level: c.level, workspaceRoot: workspace, home: '/home/peer-user' });
          const outcome = compare(c.expected, verdict.action === 'deny' ? 'block' : verdict.action);
          tally[outcome]++;
          if (outcome === 'looser') looser.push(c.id);
        }
        const pct = ((100 * tally.agree) / file.cases.length).toFixed(1);
        rows.push(`    | ${name} | ${file.cases.length} | ${tally.agree} (${pct}%) | ${tally.stricter} | ${tally.asks} | ${tally.looser} | ${file.leftOut.length} |`);
        assert.ok(tally.agree >= FLOORS[name]!, `${tally.agree} agree, floor ${FLOORS[name]}`);
        assert.deepEqual(looser.filter((id) => !LOOSER_BY_CHOICE.has(id)), []);
        // Left out: Roo's prefix lookups and list validations, which decide nothing about one command line.
        assert.ok(file.leftOut.every((l) => /not a decision|a list of commands|no decision/.test(l.why)));
      });
    }
  });
});
