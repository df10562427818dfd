import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildMainSystemPrompt } from '../../../../../src/core/context/prompt/main-system-prompt';
import type { MainPromptContext } from '../../../../../src/core/context/prompt/prompt-context';
import { PROMPT_TOOLS } from '../../../../../src/core/context/prompt/prompt-variables';
import { readSectionMetadata } from '../../../../../src/core/context/prompt/section-metadata';
import { estimateTextTokens } from '../../../../../src/core/context/token-estimate';
import { BUILTIN_SUBAGENTS } from '../../../../../src/core/subagents/builtin-agents';
import { createBuiltinRegistry } from '../../../../../src/core/tools/builtin-tools';
import { templatesDir } from '../../../../../src/core/templates';

/** The everyday case: a git repo, subagents, todos, OpenAI, a session; no instruction files. */
function typicalContext(overrides: Partial<MainPromptContext> = {}): MainPromptContext {
  return {
    workspaceRoot: '/home/dev/projects/shop-frontend',
    platform: 'linux',
    date: '2025-06-01',
    inGitRepo: true,
    subagentTypes: BUILTIN_SUBAGENTS.map((s) => s.name),
    todoEnabled: true,
    provider: 'openai',
    sessionId: 'a1b2c3d4',
    scratchDir: '/home/dev/.opendev/scratch/a1b2c3d4',
    ...overrides,
  };
}

const MAIN_SECTIONS = [
  'mode-awareness', 'security-policy', 'tone-and-style', 'no-time-estimates', 'interaction-pattern', 'available-tools',
  'tool-selection', 'code-quality', 'action-safety', 'read-before-edit', 'error-recovery', 'subagent-guide', 'git-workflow',
  'task-tracking', 'provider-openai', 'provider-anthropic', 'provider-fireworks', 'output-awareness', 'scratchpad',
  'code-references', 'reminders-note',
  // Beyond the paper's 21: the skills index (only when there are skills).
  'skills',
];

describe('buildMainSystemPrompt (the shipped sections)', () => {
  const home = mkdtempSync(join(tmpdir(), 'opendev-home-'));
  const build = (ctx: MainPromptContext) => buildMainSystemPrompt(ctx, { home });
  const whole = (ctx: MainPromptContext) => {
    const { stable, dynamic } = build(ctx);
    return `${stable}\n\n${dynamic}`;
  };

  it('ships the main sections, each with valid frontmatter', () => {
    const dir = join(templatesDir(), 'system', 'main');
    const names = readdirSync(dir).map((f) => {
      const result = readSectionMetadata(join(dir, f));
      assert.ok(result.ok, `${f}: ${result.ok ? '' : result.error}`);
      return result.metadata.name;
    });
    assert.deepEqual(names.sort(), [...MAIN_SECTIONS].sort());
  });

  it('stays under 2,200 tokens in the typical case, with every variable resolved', () => {
    const { stable, dynamic } = build(typicalContext());
    const total = estimateTextTokens(`${stable}\n\n${dynamic}`);
    assert.ok(total < 2200, `the composed prompt is ${total} tokens`);
    assert.doesNotMatch(`${stable}${dynamic}`, /\$\{/);
  });

  it('begins with the identity, and keeps the session and reminders out of the cached part', () => {
    const { stable, dynamic } = build(typicalContext());
    assert.match(stable, /^You are OpenDev/);
    assert.doesNotMatch(stable, /a1b2c3d4/, 'a session id in the stable part would break the cache every session');
    assert.match(dynamic, /Session a1b2c3d4\. .*`\/home\/dev\/\.opendev\/scratch\/a1b2c3d4`/s);
    assert.match(dynamic, /## Reminders/);
    assert.match(dynamic, /^Workspace root: `\/home\/dev\/projects\/shop-frontend`\nPlatform: linux\nToday: 2025-06-01/);
  });

  it('names tools through the variables: edit_file, read_file, task_complete appear resolved', () => {
    const text = whole(typicalContext());
    for (const tool of ['edit_file', 'read_file', 'search', 'run_command', 'spawn_subagent', 'write_todos', 'task_complete']) {
      assert.ok(text.includes(tool), `${tool} is named`);
    }
  });

  it('every tool variable names a real builtin tool', () => {
    const registry = createBuiltinRegistry();
    for (const [key, name] of Object.entries(PROMPT_TOOLS)) assert.ok(registry.get(name), `${key} → ${name} is not a registered tool`);
  });

  it('the git section needs a git repository', () => {
    assert.match(whole(typicalContext()), /## Git\n/);
    assert.doesNotMatch(whole(typicalContext({ inGitRepo: false })), /## Git\n/);
  });

  it('the subagent guide lists every subagent type, and is absent without subagents', () => {
    const text = whole(typicalContext());
    for (const spec of BUILTIN_SUBAGENTS) assert.ok(text.includes(spec.name), `${spec.name} is listed`);
    assert.doesNotMatch(whole(typicalContext({ subagentTypes: [] })), /## Subagents/);
  });

  it('the todo section needs todos', () => {
    assert.match(whole(typicalContext()), /## Todos/);
    assert.doesNotMatch(whole(typicalContext({ todoEnabled: false })), /## Todos/);
  });

  it('exactly one provider section, the one for the model in use; none for an unknown server', () => {
    const marker = /## Tool calls/g;
    const openai = whole(typicalContext({ provider: 'openai' }));
    const anthropic = whole(typicalContext({ provider: 'anthropic' }));
    const fireworks = whole(typicalContext({ provider: 'fireworks' }));
    for (const text of [openai, anthropic, fireworks]) assert.equal(text.match(marker)?.length, 1);
    assert.match(openai, /never as JSON in your reply/);
    assert.match(anthropic, /reads your text as it streams/);
    assert.match(fireworks, /no commentary\s+inside them/);
    assert.doesNotMatch(whole(typicalContext({ provider: 'other' })), marker);
  });

  it('the scratchpad needs a session id', () => {
    assert.doesNotMatch(build(typicalContext({ sessionId: undefined, scratchDir: undefined })).dynamic, /## Scratch space/);
  });

  it('adds the project OPENDEV.md to the dynamic part, labelled', () => {
    const workspace = mkdtempSync(join(tmpdir(), 'opendev-ws-'));
    writeFileSync(join(workspace, 'OPENDEV.md'), 'Run tests with `make check`.\n');
    const { stable, dynamic } = build(typicalContext({ workspaceRoot: workspace }));
    assert.match(dynamic, /<instructions source="OPENDEV.md">\nRun tests with `make check`\.\n<\/instructions>/);
    assert.doesNotMatch(stable, /make check/);
  });

  it('falls back to templates/system/fallback.md when the sections folder is missing', () => {
    const copy = mkdtempSync(join(tmpdir(), 'opendev-templates-'));
    cpSync(templatesDir(), copy, { recursive: true });
    rmSync(join(copy, 'system', 'main'), { recursive: true });
    const saved = process.env.OPENDEV_TEMPLATES_DIR;
    process.env.OPENDEV_TEMPLATES_DIR = copy;
    try {
      const { stable, dynamic } = build(typicalContext());
      assert.match(stable, /^You are OpenDev/);
      assert.match(stable, /call task_complete with a short summary/);
      assert.doesNotMatch(stable, /## Modes/);
      assert.doesNotMatch(stable, /\$\{/);
      assert.match(dynamic, /^Workspace root: /, 'the environment still follows');
    } finally {
      if (saved === undefined) delete process.env.OPENDEV_TEMPLATES_DIR;
      else process.env.OPENDEV_TEMPLATES_DIR = saved;
    }
  });

  it('a deleted section file is skipped, the rest still composes', () => {
    const copy = mkdtempSync(join(tmpdir(), 'opendev-templates-'));
    cpSync(templatesDir(), copy, { recursive: true });
    rmSync(join(copy, 'system', 'main', 'git-workflow.md'));
    const saved = process.env.OPENDEV_TEMPLATES_DIR;
    process.env.OPENDEV_TEMPLATES_DIR = copy;
    try {
      const text = whole(typicalContext());
      assert.doesNotMatch(text, /## Git\n/);
      assert.match(text, /## Read before you edit/);
    } finally {
      if (saved === undefined) delete process.env.OPENDEV_TEMPLATES_DIR;
      else process.env.OPENDEV_TEMPLATES_DIR = saved;
    }
  });
});
