import { parseArgs } from 'node:util';
import { z } from 'zod';
import { PROVIDER_KINDS } from '../core/config/provider-settings';

export const CliOptionsSchema = z.object({
  prompt: z.string().optional(),
  workingDir: z.string().optional(),
  provider: z.enum(PROVIDER_KINDS).optional(),
  model: z.string().min(1).optional(),
  outputFormat: z.enum(['text', 'json']).default('text'),
  verbose: z.boolean().default(false),
  version: z.boolean().default(false),
  help: z.boolean().default(false),
});
export type CliOptions = z.infer<typeof CliOptionsSchema>;

export class UsageError extends Error {}

/** Parses argv (without node and script) into validated options; throws UsageError with a fix. */
export function parseCliArgs(argv: string[]): CliOptions {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        prompt: { type: 'string', short: 'p' },
        'working-dir': { type: 'string', short: 'C' },
        provider: { type: 'string' },
        model: { type: 'string', short: 'm' },
        'output-format': { type: 'string' },
        verbose: { type: 'boolean', short: 'v' },
        version: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const parsed = CliOptionsSchema.safeParse({
    prompt: values.prompt,
    workingDir: values['working-dir'],
    provider: values.provider,
    model: values.model,
    outputFormat: values['output-format'],
    verbose: values.verbose,
    version: values.version,
    help: values.help,
  });
  if (!parsed.success) {
    throw new UsageError(parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join('; '));
  }
  return parsed.data;
}
