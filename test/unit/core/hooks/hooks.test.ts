import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { ToolDispatcher } from '../../../../src/core/agent/tool-dispatcher';
import type { ToolLifecycle } from '../../../../src/core/tools/tool-lifecycle';
import {
  composeLifecycles,
  getMatchingHookGroups,
  hooksLifecycle,
  loadHooksConfig,
  parseHooksConfig,
  matcherMatches,
  MAX_CONSECUTIVE_STOP_BLOCKS,
  runCommandHook,
  runHooks,
  runPreCompact,
  runSessionStart,
  runStop,
  runUserPromptSubmit,
  type HooksConfig,
} from '../../../../src/core/hooks';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { toolFailure, type Tool } from '../../../../src/core/tools/tool';
import { toolContext } from '../../../helpers/tool-context';
import { running, until } from '../../../helpers/wait';

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });
const on = (event: string, command: string, matcher?: string, extra: Record<string, unknown> = {}): HooksConfig => ({
  [event]: [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [cmd(command, extra)] }],
});

describe('hooks', () => {
  let root: string;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'opendev-hooks-')));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  describe('matcher', () => {
    it('letters-only matchers are exact names or |/, lists; others are unanchored regexes', () => {
      assert.ok(matcherMatches('Bash', 'Bash'));
      assert.ok(!matcherMatches('Bash', 'BashOutput'));
      assert.ok(matcherMatches('Edit|Write', 'Write'));
      assert.ok(matcherMatches('Edit, Write', 'Edit'));
      assert.ok(matcherMatches('Edit.*', 'NotebookEdit'), 'regex is unanchored');
      assert.ok(matcherMatches('mcp__github__.*', 'mcp__github__create_issue'));
      assert.ok(matcherMatches('*', 'anything') && matcherMatches('', 'x') && matcherMatches(undefined, 'x'));
      assert.ok(!matcherMatches('[bad', 'bad'), 'an invalid regex matches nothing');
    });

    it('divergence (peer README #5): "File" does not match ReadFile (Claude Code), unlike Continue', () => {
      assert.equal(matcherMatches('File', 'ReadFile'), false);
      assert.equal(matcherMatches('.*File', 'ReadFile'), true, 'the loose match is still available as a regex');
    });

    it('events without matchers ignore them', () => {
      assert.equal(getMatchingHookGroups(on('Stop', 'true', 'nothing'), 'Stop', 'x').length, 1);
    });
  });

  describe('config', () => {
    const write = (file: string, value: unknown) => {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
    };

    it('merges per event: global, then .claude, then .opendev', () => {
      const home = join(root, 'home');
      const ws = join(root, 'ws');
      write(join(home, 'settings.json'), { hooks: on('PreToolUse', 'echo global') });
      write(join(ws, '.claude', 'settings.json'), { hooks: { ...on('PreToolUse', 'echo claude'), ...on('Stop', 'echo stop') } });
      write(join(ws, '.opendev', 'settings.json'), { hooks: on('PreToolUse', 'echo project') });
      const loaded = loadHooksConfig({ workspaceRoot: ws, opendevHome: home, projectTrusted: true });
      assert.deepEqual(loaded.warnings, []);
      assert.deepEqual(loaded.hooks.PreToolUse!.map((g) => g.hooks[0]!.command), ['echo global', 'echo claude', 'echo project']);
      assert.equal(loaded.hooks.Stop!.length, 1);
      assert.equal(loaded.sources.length, 3);
    });

    it('invalid JSON and bad entries are warnings, never throws', () => {
      const home = join(root, 'home');
      const ws = join(root, 'ws');
      write(join(home, 'settings.json'), '{ nope');
      write(join(ws, '.opendev', 'settings.json'), { hooks: { PreToolUse: [{ hooks: [{ type: 'command' }, cmd('echo ok')] }, 'junk'], Stop: 'x' } });
      const loaded = loadHooksConfig({ workspaceRoot: ws, opendevHome: home, projectTrusted: true });
      assert.equal(loaded.warnings.length, 4, loaded.warnings.join('\n'));
      assert.deepEqual(loaded.hooks.PreToolUse, [{ hooks: [cmd('echo ok')] }]);
    });

    it('a matcher that is not a string drops its group with a warning saying so; keys it does not know are kept', () => {
      const parsed = parseHooksConfig({ PreToolUse: [{ matcher: 3, hooks: [cmd('echo a')] }, { matcher: 'Bash', hooks: [{ ...cmd('echo b'), shell: 'zsh' }] }] }, 'f.json');
      assert.deepEqual(parsed.warnings, ['hooks: f.json: hooks.PreToolUse[0].matcher must be a string; ignored']);
      assert.deepEqual(parsed.hooks.PreToolUse, [{ matcher: 'Bash', hooks: [{ ...cmd('echo b'), shell: 'zsh' }] }]);
    });

    it('disableAllHooks: the lifecycle runs nothing', async () => {
      const ws = join(root, 'ws');
      write(join(ws, '.opendev', 'settings.json'), { disableAllHooks: true, hooks: on('PreToolUse', 'exit 2') });
      const loaded = loadHooksConfig({ workspaceRoot: ws, opendevHome: join(root, "home"), projectTrusted: true });
      const gate = await hooksLifecycle(loaded, { workspaceRoot: ws, sessionId: 's' }).before!({ id: '1', name: 't', arguments: '{}' }, toolContext({ workspaceRoot: ws }));
      assert.equal(gate.proceed, true);
    });
  });

  describe('runner', () => {
    it('passes the input JSON on stdin, runs in the workspace with the project env vars', async () => {
      const out = join(root, 'stdin.json');
      const config = on('PreToolUse', `cat > ${out}; echo "$PWD|$CLAUDE_PROJECT_DIR|$OPENDEV_PROJECT_DIR"`);
      const r = await runHooks(config, { session_id: 'sess', cwd: root, hook_event_name: 'PreToolUse', tool_name: 'run_command', tool_input: { command: 'ls' } }, { matchValue: 'run_command' });
      assert.equal(r.results[0]!.stdout.trim(), `${root}|${root}|${root}`);
      const input = JSON.parse(readFileSync(out, 'utf8'));
      assert.equal(input.session_id, 'sess');
      assert.equal(input.hook_event_name, 'PreToolUse');
      assert.deepEqual(input.tool_input, { command: 'ls' });
    });

    it('a hook that never exits is killed with its process group at its timeout', async function () {
      this.timeout(60_000);
      const pidFile = join(root, 'child.pid');
      const started = Date.now();
      // 2 s: time enough for the shell to start its child and write the pid on a loaded machine.
      const r = await runHooks(on('Stop', `sleep 60 & echo $! > ${pidFile}; wait`, undefined, { timeout: 2 }), { session_id: 's', cwd: root, hook_event_name: 'Stop' });
      assert.ok(Date.now() - started < 30_000, 'stopped at its timeout, not when its child would have ended (60 s)');
      assert.equal(r.blocked, false, 'a timeout never blocks');
      assert.match(r.warnings[0]!, /timed out/);
      const pid = Number(readFileSync(pidFile, 'utf8'));
      await until(() => !running(pid), 'the background child to be killed too');
    });

    it('abort kills the hook', async function () {
      this.timeout(60_000);
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 100);
      const started = Date.now();
      const r = await runCommandHook('sleep 60', '{}', { cwd: root, env: process.env, timeoutMs: 120_000, signal: ac.signal });
      assert.equal(r.aborted, true);
      assert.ok(Date.now() - started < 30_000, 'stopped by the abort, not when the command would have ended (60 s)');
    });

    it("does not read the user's ~/.bashrc, even where the host has no SHLVL (bash would take the socket on its stdin for an rsh session)", async () => {
      const home = join(root, 'user-home');
      mkdirSync(home);
      const marker = join(root, 'bashrc-ran');
      writeFileSync(join(home, '.bashrc'), `echo sourced > ${marker}\n`);
      const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
      delete env.SHLVL;
      const r = await runCommandHook('echo "level $SHLVL"', '{}', { cwd: root, env, timeoutMs: 120_000 });
      assert.equal(r.exitCode, 0);
      assert.equal(r.stdout.trim(), 'level 2', 'the hook runs as a nested shell');
      assert.ok(!existsSync(marker), '~/.bashrc was not read');
      // A level the host has already is kept (bash adds its own).
      const nested = await runCommandHook('echo "level $SHLVL"', '{}', { cwd: root, env: { ...env, SHLVL: '3' }, timeoutMs: 120_000 });
      assert.equal(nested.stdout.trim(), 'level 4');
    });

    it('a background child holding stdout does not keep the hook waiting', async function () {
      this.timeout(60_000);
      const started = Date.now();
      const r = await runCommandHook('sleep 60 & echo "done $!"', '{}', { cwd: root, env: process.env, timeoutMs: 120_000 });
      const [said, pid] = r.stdout.trim().split(' ');
      if (Number(pid) > 0) process.kill(Number(pid)); // the test's leftover
      assert.equal(r.exitCode, 0);
      assert.equal(said, 'done');
      assert.ok(Date.now() - started < 30_000, 'it returned when the hook ended, not when its background child would have (60 s)');
    });

    it('exit 1 and garbage JSON are warnings; the action goes on', async () => {
      const r = await runHooks({ PreToolUse: [{ hooks: [cmd('echo oops >&2; exit 1'), cmd("echo '{not json'")] }] }, { session_id: 's', cwd: root, hook_event_name: 'PreToolUse', tool_name: 'x' });
      assert.equal(r.blocked, false);
      assert.equal(r.permissionDecision, undefined);
      assert.equal(r.warnings.length, 2);
      assert.match(r.warnings.join('\n'), /exit 1\): oops/);
    });

    it('exit 2 blocks even when stdout JSON says allow; JSON reason wins over stderr', async () => {
      const r1 = await runHooks(on('PreToolUse', `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'; echo why >&2; exit 2`), { session_id: 's', cwd: root, hook_event_name: 'PreToolUse', tool_name: 'x' });
      assert.equal(r1.blocked, true);
      assert.equal(r1.permissionDecision, 'deny');
      assert.equal(r1.blockReason, 'why');
      const r2 = await runHooks(on('Stop', `echo '{"decision":"block","reason":"tests fail"}'; exit 2`), { session_id: 's', cwd: root, hook_event_name: 'Stop' });
      assert.equal(r2.blockReason, 'tests fail');
    });

    it('a valid JSON object decides even on a non-zero, non-2 exit', async () => {
      const r = await runHooks(on('PreToolUse', `echo '{"decision":"block","reason":"legacy"}'; exit 1`), { session_id: 's', cwd: root, hook_event_name: 'PreToolUse', tool_name: 'x' });
      assert.equal(r.blocked, true);
      assert.equal(r.permissionDecision, 'deny');
    });

    it('continue:false, systemMessage, PostToolUse exit-2 stderr and decision:block become outcome fields', async () => {
      const r = await runHooks(on('UserPromptSubmit', `echo '{"continue":false,"stopReason":"enough","systemMessage":"hi user"}'`), { session_id: 's', cwd: root, hook_event_name: 'UserPromptSubmit', prompt: 'p' });
      assert.deepEqual(r.stop, { reason: 'enough' });
      assert.deepEqual(r.systemMessages, ['hi user']);
      const p = await runHooks({ PostToolUse: [{ hooks: [cmd('echo lint failed >&2; exit 2'), cmd(`echo '{"decision":"block","reason":"fix it"}'`)] }] }, { session_id: 's', cwd: root, hook_event_name: 'PostToolUse', tool_name: 'x' });
      assert.equal(p.blocked, false);
      assert.equal(p.additionalContext, 'lint failed\nfix it');
    });
  });

  describe('lifecycle', () => {
    let ran: unknown[];
    const echo: Tool = {
      name: 'echo_tool',
      category: 'meta',
      readOnly: false,
      schema: z.object({ text: z.string(), extra: z.string().optional() }),
      async run(raw) {
        const args = raw as { text: string };
        ran.push(args);
        if (args.text === 'fail') return toolFailure('other', 'it failed');
        return { ok: true, output: `echo ${args.text}`, summary: 'ok' };
      },
    };
    const registry = new ToolRegistry().register(echo);
    beforeEach(() => {
      ran = [];
    });
    const dispatch = async (lifecycle: ToolLifecycle, args: unknown) => {
      const [result] = await new ToolDispatcher(registry, lifecycle).dispatch([{ id: 'c1', name: 'echo_tool', arguments: JSON.stringify(args) }], toolContext({ workspaceRoot: root }));
      return result!;
    };

    it('PreToolUse deny or exit 2 refuses the call with a permission failure', async () => {
      const deny = hooksLifecycle(on('PreToolUse', `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no echo"}}'`, 'echo_tool'), { workspaceRoot: root, sessionId: 's' });
      const r = await dispatch(deny, { text: 'a' });
      assert.equal(r.ok, false);
      assert.equal(r.errorKind, 'permission');
      assert.match(r.output, /no echo/);
      const exit2 = hooksLifecycle(on('PreToolUse', 'echo "stop that" >&2; exit 2'), { workspaceRoot: root, sessionId: 's' });
      const r2 = await dispatch(exit2, { text: 'a' });
      assert.match(r2.output, /stop that/);
      assert.deepEqual(ran, []);
    });

    it('updatedInput rewrites the call; allow proceeds; a non-matching matcher does nothing', async () => {
      const rewrite = hooksLifecycle(on('PreToolUse', `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"text":"rewritten"}}}'`), { workspaceRoot: root, sessionId: 's' });
      assert.equal((await dispatch(rewrite, { text: 'a' })).output, 'echo rewritten');
      const other = hooksLifecycle(on('PreToolUse', 'exit 2', 'Bash'), { workspaceRoot: root, sessionId: 's' });
      assert.equal((await dispatch(other, { text: 'b' })).output, 'echo b');
    });

    it('a failing or timing-out PreToolUse hook warns and does not block', async () => {
      const warnings: string[] = [];
      const l = hooksLifecycle({ PreToolUse: [{ hooks: [cmd('exit 1'), cmd('sleep 10', { timeout: 0.3 })] }] }, { workspaceRoot: root, sessionId: 's', onWarning: (w) => warnings.push(w) });
      assert.equal((await dispatch(l, { text: 'a' })).ok, true);
      assert.equal(warnings.length, 2);
    });

    it('PostToolUse / PostToolUseFailure run asynchronously with the tool response', async () => {
      // One log each: the two hooks may run at the same moment.
      const postLog = join(root, 'post.json');
      const failureLog = join(root, 'failure.json');
      const gate = join(root, 'post.go');
      const contexts: string[] = [];
      const config: HooksConfig = {
        // It waits for the test's go-ahead: a dispatch that awaited it would never return.
        PostToolUse: [{ matcher: 'echo_tool', hooks: [cmd(`while [ ! -e ${gate} ]; do sleep 0.05; done; cat > ${postLog}; echo '{"hookSpecificOutput":{"additionalContext":"post ctx"}}'`)] }],
        PostToolUseFailure: [{ hooks: [cmd(`cat > ${failureLog}`)] }],
      };
      const l = hooksLifecycle(config, { workspaceRoot: root, sessionId: 's', onContext: (_e, _c, ctx) => contexts.push(ctx) });
      await dispatch(l, { text: 'a' });
      await dispatch(l, { text: 'fail' });
      writeFileSync(gate, ''); // both dispatches returned with the PostToolUse hook still waiting: not awaited
      await l.idle();
      const post = JSON.parse(readFileSync(postLog, 'utf8'));
      const failure = JSON.parse(readFileSync(failureLog, 'utf8'));
      assert.equal(post.hook_event_name, 'PostToolUse');
      assert.equal(failure.hook_event_name, 'PostToolUseFailure');
      assert.deepEqual(post.tool_input, { text: 'a' });
      assert.equal(post.tool_response.output, 'echo a');
      assert.match(failure.error, /it failed/);
      assert.deepEqual(contexts, ['post ctx']);
    });

    it('a refused call fires no post hooks; a rewritten call reports its rewritten input', async () => {
      const log = join(root, 'post.jsonl');
      const refuse = hooksLifecycle({ PreToolUse: [{ hooks: [cmd('exit 2')] }], PostToolUseFailure: [{ hooks: [cmd(`cat >> ${log}`)] }] }, { workspaceRoot: root, sessionId: 's' });
      await dispatch(refuse, { text: 'a' });
      await refuse.idle();
      assert.throws(() => readFileSync(log));
      const rewrite = hooksLifecycle(
        { PreToolUse: [{ hooks: [cmd(`echo '{"hookSpecificOutput":{"updatedInput":{"text":"new"}}}'`)] }], PostToolUse: [{ hooks: [cmd(`cat >> ${log}`)] }] },
        { workspaceRoot: root, sessionId: 's' },
      );
      await dispatch(rewrite, { text: 'old' });
      await rewrite.idle();
      assert.deepEqual(JSON.parse(readFileSync(log, 'utf8')).tool_input, { text: 'new' });
    });

    it('ask asks the user (refused when no one can answer)', async () => {
      const config = on('PreToolUse', `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"sure?"}}'`);
      const l = hooksLifecycle(config, { workspaceRoot: root, sessionId: 's' });
      const headless = await dispatch(l, { text: 'a' });
      assert.equal(headless.errorKind, 'permission');
      assert.match(headless.output, /sure\?/);
      const titles: string[] = [];
      const ui = { ...toolContext({ workspaceRoot: root }).ui, requestApproval: async (req: { title: string }) => (titles.push(req.title), { action: 'allow' as const }) };
      const [ok] = await new ToolDispatcher(registry, l).dispatch([{ id: 'c2', name: 'echo_tool', arguments: '{"text":"b"}' }], toolContext({ workspaceRoot: root, ui }));
      assert.equal(ok!.output, 'echo b');
      assert.deepEqual(titles, ['Hook asks: sure?']);
    });

    it('composeLifecycles: rewritten calls flow on, first refusal wins, every after runs', async () => {
      const seen: string[] = [];
      const afters: string[] = [];
      const first: ToolLifecycle = {
        async before(call) {
          return { proceed: true, call: { ...call, arguments: JSON.stringify({ text: 'from-first' }) } };
        },
        after: () => void afters.push('first'),
      };
      const second: ToolLifecycle = {
        async before(call) {
          seen.push(call.arguments);
          return { proceed: true, call };
        },
        after: () => void afters.push('second'),
      };
      const refuse: ToolLifecycle = { before: async () => ({ proceed: false, result: toolFailure('permission', 'nope') }) };
      assert.equal((await dispatch(composeLifecycles(first, second), { text: 'x' })).output, 'echo from-first');
      assert.deepEqual(seen, [JSON.stringify({ text: 'from-first' })]);
      assert.deepEqual(afters, ['first', 'second']);
      seen.length = 0;
      assert.equal((await dispatch(composeLifecycles(refuse, second), { text: 'x' })).output, 'Error (permission): nope');
      assert.deepEqual(seen, [], 'later lifecycles do not run after a refusal');
    });
  });

  describe('event functions', () => {
    const session = () => ({ workspaceRoot: root, sessionId: 's' });

    it('runUserPromptSubmit: exit 2 blocks with stderr; plain stdout is context', async () => {
      const blocked = await runUserPromptSubmit(on('UserPromptSubmit', 'grep -q secret && { echo "no secrets" >&2; exit 2; }; exit 0'), session(), 'my secret');
      assert.equal(blocked.blocked, true);
      assert.equal(blocked.blockReason, 'no secrets');
      const ctx = await runUserPromptSubmit(on('UserPromptSubmit', 'echo "today is monday"'), session(), 'hi');
      assert.equal(ctx.blocked, false);
      assert.equal(ctx.additionalContext, 'today is monday');
    });

    it('runStop: a block keeps the agent going, but not past the consecutive-block limit', async () => {
      const config = on('Stop', `cat >/dev/null; echo '{"decision":"block","reason":"run the tests"}'`);
      const r = await runStop(config, session(), { stopHookActive: false });
      assert.equal(r.blocked, true);
      assert.equal(r.blockReason, 'run the tests');
      const forced = await runStop(config, session(), { stopHookActive: true, consecutiveBlocks: MAX_CONSECUTIVE_STOP_BLOCKS });
      assert.equal(forced.blocked, false);
      assert.match(forced.warnings.join('\n'), /stopping anyway/);
    });

    it('runSessionStart / runPreCompact match on source / trigger', async () => {
      const s = await runSessionStart({ SessionStart: [{ matcher: 'resume', hooks: [cmd('echo resumed')] }, { matcher: 'startup', hooks: [cmd('echo started')] }] }, session(), 'startup');
      assert.equal(s.additionalContext, 'started');
      const auto = await runPreCompact(on('PreCompact', 'exit 2', 'manual'), session(), 'auto');
      assert.equal(auto.blocked, false);
      const manual = await runPreCompact(on('PreCompact', 'echo busy >&2; exit 2', 'manual'), session(), 'manual');
      assert.equal(manual.blocked, true);
    });
  });
});
