import { parseArgs } from 'node:util';
import * as z from 'zod';
import { THINKING_LEVELS } from '../core/config/thinking-level';
import { OPENAI_APIS, PROVIDER_KINDS, STANDALONE_PROVIDER_KINDS } from '../core/config/provider-settings';
import { CLOUD_SETTING_SCHEMAS } from '../core/config/cloud-settings';

import { APPROVAL_LEVELS, type ApprovalLevel } from '../core/config/approval-level';

export { APPROVAL_LEVELS, type ApprovalLevel };
export const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const MAX_ITERATIONS_LIMIT = 1000;

/**
 * The loud flags that widen `-p --approval auto` past the workspace: without them a headless run
 * refuses writes outside the workspace and risky commands. Protected configuration and secret
 * locations have no flag: only a person approves those.
 */
export const ALLOW_FLAGS = { outsideWorkspace: '--allow-outside-workspace', riskyCommands: '--allow-risky-commands', unsandboxed: '--allow-unsandboxed' } as const;

/**
 * An enum flag whose error names the flag, the bad value and the allowed ones (`offered`: the values
 * worth suggesting, when a value is accepted only to be refused with its own reason later).
 */
function oneOf<const T extends readonly [string, ...string[]]>(flag: string, values: T, offered: readonly string[] = values) {
  return z.enum(values, { error: (issue) => `${flag} must be one of ${offered.join(', ')} (got "${String(issue.input)}")` });
}

export const CliOptionsSchema = z
  .object({
    prompt: z.string().trim().min(1, '--prompt is empty: pass the task, e.g. -p "explain src/index.ts"').optional(),
    workingDir: z.string().min(1, '--working-dir is empty').optional(),
    // vscode-lm passes here to be refused with the reason (it lives only inside VS Code), but is not offered.
    provider: oneOf('--provider', PROVIDER_KINDS, STANDALONE_PROVIDER_KINDS).optional(),
    model: z.string().trim().min(1, '--model is empty').optional(),
    openaiApi: oneOf('--openai-api', OPENAI_APIS).optional(),
    approval: oneOf('--approval', APPROVAL_LEVELS).default('semi-auto'),
    thinking: oneOf('--thinking', THINKING_LEVELS).optional(),
    outputFormat: oneOf('--output-format', OUTPUT_FORMATS).default('text'),
    continue: z.boolean().default(false),
    resume: z.string().trim().min(1, '--resume needs a session id (see /sessions)').optional(),
    maxIterations: z
      .string()
      .regex(/^\d+$/, `--max-iterations must be a whole number from 1 to ${MAX_ITERATIONS_LIMIT}`)
      .transform(Number)
      .pipe(z.number().int().min(1, '--max-iterations must be at least 1').max(MAX_ITERATIONS_LIMIT, `--max-iterations must be at most ${MAX_ITERATIONS_LIMIT}`))
      .optional(),
    azureApiVersion: CLOUD_SETTING_SCHEMAS['azure.apiVersion'].optional(),
    azureDeployment: CLOUD_SETTING_SCHEMAS['azure.deployment'].optional(),
    awsRegion: CLOUD_SETTING_SCHEMAS['bedrock.region'].optional(),
    vertexRegion: CLOUD_SETTING_SCHEMAS['vertex.region'].optional(),
    vertexProject: CLOUD_SETTING_SCHEMAS['vertex.projectId'].optional(),
    verbose: z.boolean().default(false),
    debugFile: z.string().trim().min(1, '--debug-file needs a path, e.g. --debug-file opendev.log').optional(),
    allowOutsideWorkspace: z.boolean().default(false),
    allowRiskyCommands: z.boolean().default(false),
    allowUnsandboxed: z.boolean().default(false),
    version: z.boolean().default(false),
    help: z.boolean().default(false),
  })
  .superRefine((o, ctx) => {
    if (o.continue && o.resume !== undefined) {
      ctx.addIssue({ code: 'custom', message: '--continue and --resume cannot be used together: --continue takes the latest session, --resume <id> a given one' });
    }
    const loud = [[o.allowOutsideWorkspace, ALLOW_FLAGS.outsideWorkspace], [o.allowRiskyCommands, ALLOW_FLAGS.riskyCommands], [o.allowUnsandboxed, ALLOW_FLAGS.unsandboxed]] as const;
    for (const [given, flag] of loud) {
      if (given && o.prompt === undefined) ctx.addIssue({ code: 'custom', message: `${flag} needs -p "<prompt>" (an interactive session asks you instead)` });
    }
    if (o.prompt === undefined && o.outputFormat !== 'text') {
      ctx.addIssue({ code: 'custom', message: `--output-format ${o.outputFormat} needs -p "<prompt>" (the interactive session always prints text)` });
    }
  });
export type CliOptions = z.infer<typeof CliOptionsSchema>;

export class UsageError extends Error {}

/** Parses argv (without node and script) into validated options; throws UsageError saying how to fix it. */
export function parseCliArgs(argv: string[]): CliOptions {
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        prompt: { type: 'string', short: 'p' },
        'working-dir': { type: 'string', short: 'C' },
        provider: { type: 'string' },
        model: { type: 'string', short: 'm' },
        'openai-api': { type: 'string' },
        approval: { type: 'string' },
        thinking: { type: 'string' },
        'output-format': { type: 'string' },
        continue: { type: 'boolean', short: 'c' },
        resume: { type: 'string', short: 'r' },
        'max-iterations': { type: 'string' },
        'azure-api-version': { type: 'string' },
        'azure-deployment': { type: 'string' },
        'aws-region': { type: 'string' },
        'vertex-region': { type: 'string' },
        'vertex-project': { type: 'string' },
        verbose: { type: 'boolean', short: 'v' },
        'debug-file': { type: 'string' },
        'allow-outside-workspace': { type: 'boolean' },
        'allow-risky-commands': { type: 'boolean' },
        'allow-unsandboxed': { type: 'boolean' },
        version: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new UsageError(describeParseError(err as Error & { code?: string }));
  }
  if (positionals.length > 0) {
    throw new UsageError(`unexpected argument "${positionals[0]}": pass a prompt with -p "<prompt>"`);
  }
  const parsed = CliOptionsSchema.safeParse({
    prompt: values.prompt,
    workingDir: values['working-dir'],
    provider: values.provider,
    model: values.model,
    openaiApi: values['openai-api'],
    approval: values.approval,
    thinking: values.thinking,
    outputFormat: values['output-format'],
    continue: values.continue,
    resume: values.resume,
    maxIterations: values['max-iterations'],
    azureApiVersion: values['azure-api-version'],
    azureDeployment: values['azure-deployment'],
    awsRegion: values['aws-region'],
    vertexRegion: values['vertex-region'],
    vertexProject: values['vertex-project'],
    verbose: values.verbose,
    debugFile: values['debug-file'],
    allowOutsideWorkspace: values['allow-outside-workspace'],
    allowRiskyCommands: values['allow-risky-commands'],
    allowUnsandboxed: values['allow-unsandboxed'],
    version: values.version,
    help: values.help,
  });
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => i.message).join('; '));
  return parsed.data;
}

function describeParseError(err: Error & { code?: string }): string {
  const option = /'(-[^']+)'/.exec(err.message)?.[1];
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${option ?? err.message}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const name = option?.split(/[ ,]/).filter((p) => p.startsWith('--')).pop() ?? option;
      if (/argument missing/.test(err.message) && name) return `${name} needs a value`;
      if (/does not take an argument/.test(err.message) && name) return `${name} does not take a value`;
      return err.message;
    }
    default:
      return err.message;
  }
}
