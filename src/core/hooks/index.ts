// Claude-Code-compatible hooks (issue 6 §3): config, matcher, runner and the tool lifecycle.
//
// Decisions (see the tests for each):
// - Config: `hooks` from OPENDEV_HOME/settings.json, <ws>/.claude/settings.json, <ws>/.claude/settings.local.json,
//   <ws>/.opendev/settings.json, merged per event in that order; identical commands run once. Bad files → warnings.
// - Matchers follow the current Claude Code doc (letters-only = exact name or `|`/`,` list, else unanchored RegExp),
//   not Continue's "every matcher is a RegExp" ("File" does not match "ReadFile"). Claude tool names (Bash, Edit,
//   Write, Read, Glob, Grep, Task, TodoWrite) also match the OpenDev tools they correspond to.
// - Exit 2 blocks on PreToolUse, UserPromptSubmit, Stop, SubagentStop and PreCompact (the protocol table), and on
//   SubagentStart (the paper; Claude Code cannot block it): the spawn is refused and the model reads why.
// - Wiring (session-hooks.ts): SessionStart runs before the first prompt of a conversation (source startup / resume /
//   clear), UserPromptSubmit before every prompt, Stop when the agent is about to finish, SessionEnd on dispose or
//   /clear (1.5 s default timeout), Notification when the user is asked something. additionalContext joins the
//   conversation as a user-role message (templates/reminders.md `hook_context`); post-hook context at the next call.
// - Default timeout 60 s per hook (30 s for UserPromptSubmit, 1.5 s for SessionEnd); a hook's `timeout` is in seconds. A timeout or
//   abort kills the hook's process group and never blocks.
// - `type` other than "command" (prompt, agent, http) is skipped with a warning; `async: true` hooks are fire and forget.
export * from './types';
export * from './matcher';
export * from './config';
export * from './runner';
export * from './hook-output';
export * from './lifecycle';
export * from './tool-hooks';
export * from './agent-hooks';
export * from './notification-ui';
export * from './session-hooks';
