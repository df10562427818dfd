// The built-in slash commands. Each one works on the agent and the session store only, so every
// front end (CLI, OpenDev terminal, VS Code chat) gets the same behaviour. Those that need no model
// (`keyless`: /help, /sessions, /models, /config, /playbook, /exit) run before a key is set.
import { join } from 'node:path';
import { THINKING_LEVELS, type ThinkingLevel } from '../config/thinking-level';
import { formatSettingsReport, type SettingsReport } from '../config/settings-report';
import { describePlaybook } from '../memory/playbook/describe-playbook';
import { PLAYBOOK_FILE, playbookPath, PlaybookStore } from '../memory/playbook/playbook-store';
import type { AgentMode } from '../ui';
import { keyless, type CommandResult, type SlashCommand, type SlashCommandRegistry } from './command-registry';
import { formatCompaction, formatCost, formatSessions, formatTodos } from './format';
import { initCommand } from './init-command';
import { mcpCommand } from './mcp-command';
import { skillsCommand } from './skills-command';
import { sandboxCommand } from './sandbox-command';

const MODES: readonly AgentMode[] = ['normal', 'plan'];

const MODE_HELP: Record<AgentMode, string> = {
  normal: 'The agent reads, edits and runs commands (subject to approval).',
  plan: 'The agent explores with read-only tools and writes a plan for you to approve before changing anything.',
};

const THINKING_HELP: Record<ThinkingLevel, string> = {
  off: 'off: no separate reasoning step.',
  low: 'low: a short reasoning step before acting.',
  medium: 'medium: a reasoning step before acting.',
  high: 'high: reasoning plus a self-critique before acting (slower, more careful).',
};

const ok = (output: string, extra: Partial<CommandResult> = {}): CommandResult => ({ output, ...extra });
const usage = (output: string): CommandResult => ({ output, error: 'usage' });

function help(registry: SlashCommandRegistry): SlashCommand {
  return keyless({
    name: 'help',
    summary: 'List the commands, or explain one',
    usage: '/help [command]',
    whileRunning: true,
    async run(args) {
      if (args) {
        const command = registry.get(args);
        if (!command) return usage(`No command /${args.replace(/^\//, '')}. Type /help for the list.`);
        return ok(`${command.usage}\n  ${command.summary}${command.available === false ? ' (not available yet)' : ''}`);
      }
      const commands = registry.list();
      const width = Math.max(...commands.map((c) => c.usage.length));
      const lines = commands.map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}${c.available === false ? ' (not available yet)' : ''}`);
      return ok(
        [
          'Commands (handled without the model):',
          ...lines,
          '',
          'Anything else is sent to the agent. Start a message with // to send a leading slash.',
        ].join('\n'),
      );
    },
  });
}

const plan: SlashCommand = {
  name: 'plan',
  summary: 'Switch to plan mode; with a task, plan it now',
  usage: '/plan [task]',
  async run(args, ctx) {
    if (ctx.agent.running) return usage('Wait for the agent to finish before switching modes.');
    ctx.agent.setMode('plan');
    if (!args) return ok(`Mode: plan. ${MODE_HELP.plan} Type a task, or /mode normal to leave.`);
    return ok('Mode: plan.', { runPrompt: args });
  },
};

const mode: SlashCommand = {
  name: 'mode',
  summary: 'Show or set the mode (normal or plan)',
  usage: '/mode [normal|plan]',
  argChoices: MODES,
  async run(args, ctx) {
    if (!args) return ok(`Mode: ${ctx.agent.mode}.\n${MODES.map((m) => `  ${m}: ${MODE_HELP[m]}`).join('\n')}`);
    const wanted = args.toLowerCase();
    if (!MODES.includes(wanted as AgentMode)) return usage(`Unknown mode "${args}". Use /mode normal or /mode plan.`);
    if (ctx.agent.running) return usage('Wait for the agent to finish before switching modes.');
    ctx.agent.setMode(wanted as AgentMode);
    return ok(`Mode: ${wanted}. ${MODE_HELP[wanted as AgentMode]}`);
  },
};

const thinking: SlashCommand = {
  name: 'thinking',
  summary: 'Show or set how much the agent reasons before acting',
  usage: '/thinking [off|low|medium|high]',
  argChoices: THINKING_LEVELS,
  whileRunning: true,
  async run(args, ctx) {
    if (!args) return ok(`Thinking: ${ctx.agent.thinkingLevel}.\n${THINKING_LEVELS.map((l) => `  ${THINKING_HELP[l]}`).join('\n')}`);
    const wanted = args.toLowerCase();
    if (!THINKING_LEVELS.includes(wanted as ThinkingLevel)) return usage(`Unknown thinking level "${args}". Use one of: ${THINKING_LEVELS.join(', ')}.`);
    ctx.agent.setThinkingLevel(wanted as ThinkingLevel);
    return ok(`Thinking: ${wanted}.`);
  },
};

const clear: SlashCommand = {
  name: 'clear',
  summary: 'Start a new conversation (the current one stays saved)',
  usage: '/clear',
  async run(_args, ctx) {
    if (ctx.agent.running) return usage('Wait for the agent to finish (or stop it) before clearing the conversation.');
    let saved = '';
    if (ctx.sessions && ctx.session && ctx.agent.messages.length > 0) {
      await ctx.sessions.sync(ctx.session, ctx.agent.messages, ctx.agent.cost());
      saved = ` The previous conversation is saved as session ${ctx.session.meta.id}.`;
    }
    ctx.agent.clear();
    return ok(`New conversation.${saved}`, { clearScreen: true, newSession: true });
  },
};

const compact: SlashCommand = {
  name: 'compact',
  summary: 'Summarise the conversation to free context (optionally, what the summary should keep)',
  usage: '/compact [instructions]',
  // Not while the agent works: the turn owns the conversation (and compacts it itself when full).
  async run(args, ctx) {
    if (ctx.agent.running) return usage('Wait for the agent to finish (or stop it) before compacting; while it works, the context is compacted automatically when it fills up.');
    if (!ctx.agent.compact) return { output: 'Compaction is not available here.', error: 'unavailable' };
    const result = await ctx.agent.compact(args);
    return ok(result.status === 'compacted' ? formatCompaction(result.report) : result.reason);
  },
};

const undo: SlashCommand = {
  name: 'undo',
  summary: 'Undo the last step that changed files; /undo <step> goes back to just before that step; /undo list shows them',
  usage: '/undo [step|list]',
  async run(args, ctx) {
    if (!ctx.agent.undo || !ctx.agent.undoHistory) return { output: 'Undo is not available here.', error: 'unavailable' };
    if (args.toLowerCase() === 'list') return ok(await ctx.agent.undoHistory());
    if (args && !/^\d+$/.test(args)) return usage('Use /undo, /undo <step number> or /undo list.');
    if (ctx.agent.running) return usage('Wait for the agent to finish (or stop it) before undoing.');
    const outcome = await ctx.agent.undo(args ? Number(args) : undefined);
    if (outcome.status === 'unavailable') return { output: outcome.message, error: 'unavailable' };
    return ok(outcome.message);
  },
};

const sessions: SlashCommand = keyless({
  name: 'sessions',
  summary: "List this project's saved sessions",
  usage: '/sessions',
  whileRunning: true,
  async run(_args, ctx) {
    const workingDir = ctx.workingDir ?? ctx.session?.meta.workingDir;
    if (!ctx.sessions || !workingDir) return { output: 'Sessions are not saved in this window.', error: 'unavailable' };
    return ok(formatSessions(await ctx.sessions.list(workingDir), ctx.session?.meta.id));
  },
});

const models: SlashCommand = keyless({
  name: 'models',
  summary: 'Show the configured models',
  usage: '/models',
  whileRunning: true,
  async run(_args, ctx) {
    if (!ctx.models || ctx.models.length === 0) return ok('The model configuration is not known here.');
    const lines = ctx.models.map((m) => `  ${m.role}: ${m.model} (${m.provider}${m.baseUrl ? ` at ${m.baseUrl}` : ''})`);
    const hint =
      (ctx.front === 'cli'
        ? 'Change it with --provider and --model (or OPENDEV_PROVIDER, OPENDEV_MODEL, or "model" in settings.json).'
        : 'Change it with OpenDev: Select Model (a "model" in the project\'s .opendev/settings.json takes precedence).') + ' /config shows where each setting comes from.';
    return ok(['Models:', ...lines, hint].join('\n'));
  },
});

/** What the host gives the built-ins that only it knows (each host layers its settings its own way). */
export interface BuiltinCommandOptions {
  /** The effective settings with their sources, for /config. */
  settings?: () => SettingsReport | Promise<SettingsReport>;
}

function config(options: BuiltinCommandOptions): SlashCommand {
  return keyless({
    name: 'config',
    summary: 'Show the effective settings and where each one comes from',
    usage: '/config',
    whileRunning: true,
    async run(_args, ctx) {
      if (!options.settings) return { output: 'The settings are not known here.', error: 'unavailable' };
      const sandbox = ctx.agent?.sandbox && (await ctx.agent.sandbox.status());
      const where = sandbox ? `\n\nCommands run ${sandbox.state === 'active' ? 'sandboxed' : `unsandboxed (${sandbox.state === 'off' ? 'sandbox.enabled is off' : sandbox.reason})`}; /sandbox shows the policy.` : '';
      return ok(formatSettingsReport(await options.settings()) + where);
    },
  });
}

const agents: SlashCommand = {
  name: 'agents',
  summary: 'List the subagent types the agent can delegate to',
  usage: '/agents',
  whileRunning: true,
  async run(_args, ctx) {
    const types = ctx.agent.subagentTypes();
    if (types.length === 0) return ok('No subagent types are available.');
    const width = Math.max(...types.map((t) => t.name.length));
    return ok(['Subagent types:', ...types.map((t) => `  ${t.name.padEnd(width)}  ${t.description}`)].join('\n'));
  },
};

const todos: SlashCommand = {
  name: 'todos',
  summary: "Show the agent's todo list",
  usage: '/todos',
  whileRunning: true,
  async run(_args, ctx) {
    return ok(formatTodos(ctx.agent.todos()));
  },
};

const cost: SlashCommand = {
  name: 'cost',
  summary: 'Show the tokens and cost of this session',
  usage: '/cost',
  whileRunning: true,
  async run(_args, ctx) {
    const snapshot = ctx.agent.cost();
    return ok(snapshot ? `Session cost: ${formatCost(snapshot)}` : 'Cost tracking is not available.');
  },
};

const playbook: SlashCommand = keyless({
  name: 'playbook',
  summary: "Show the project's playbook: the lessons the agent learned here, and the file to edit",
  usage: '/playbook',
  whileRunning: true,
  async run(_args, ctx) {
    const workingDir = ctx.workingDir ?? ctx.session?.meta.workingDir;
    if (!workingDir) return { output: 'The playbook belongs to a project: open a folder first.', error: 'unavailable' };
    // The project folder the sessions use, so the command and the agent agree on the file.
    const path = ctx.sessions ? join(ctx.sessions.projectDir(workingDir), PLAYBOOK_FILE) : playbookPath(workingDir);
    const warnings: string[] = [];
    const book = await new PlaybookStore(path, { onWarning: (w) => warnings.push(w) }).read();
    return ok([...warnings, describePlaybook(path, book)].join('\n'));
  },
});

const exit: SlashCommand = keyless({
  name: 'exit',
  summary: 'Leave (the conversation stays saved)',
  usage: '/exit',
  whileRunning: true,
  async run() {
    return ok('Bye.', { exit: true });
  },
});

/** Registers the built-in commands, in the order /help lists them. */
export function registerBuiltinCommands(registry: SlashCommandRegistry, options: BuiltinCommandOptions = {}): SlashCommandRegistry {
  return registry.register(
    help(registry),
    plan,
    mode,
    thinking,
    clear,
    sessions,
    models,
    config(options),
    agents,
    todos,
    cost,
    playbook,
    compact,
    undo,
    mcpCommand(),
    sandboxCommand,
    skillsCommand(),
    initCommand,
    exit,
  );
}
