// An agent definition file: YAML frontmatter (name, description, tools, model, max_iterations) and the
// system prompt as its body. Custom agents (.opendev/agents, OPENDEV_HOME/agents) and the built-in
// ones (templates/subagents) are read by this one parser.
import { basename } from 'node:path';
import * as z from 'zod';
import { asText, parseFrontmatter, splitFrontmatter } from '../frontmatter';
import { MAIN_AGENT_ONLY_TOOLS, SUBAGENT_MAX_ITERATIONS, type SubagentSource, type SubagentSpec } from './specs';

const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9 _-]{0,63}$/;

const text = asText(z.string()).transform((value) => value.trim() || undefined);
const flag = asText(z.enum(['true', 'false'])).transform((value) => value === 'true');
/** The frontmatter of an agent file; keys it does not name (a `metadata:` map …) are ignored. */
const AgentHeaderSchema = z.object({
  name: text.optional(),
  description: text.optional(),
  tools: asText(z.union([z.array(asText(z.string())), z.string().transform((list) => list.split(','))], { error: 'must be a list or a comma-separated string' })).optional(),
  model: text.optional(),
  max_iterations: asText(z.string()).optional(),
});
/** Built-in agents (templates/subagents) may say more than a project or user file is allowed to claim. */
const BuiltinHeaderSchema = AgentHeaderSchema.extend({
  id_prefix: text.optional(),
  plan_mode_safe: flag.optional(),
  ui_only: flag.optional(),
});

/**
 * Parses one agent file; undefined (with a warning) when it is invalid. Built-in agents
 * (`source: 'builtin'`) keep their prompt in their template (rendered when spawned) and may set
 * `id_prefix`, `plan_mode_safe` and `ui_only` (no model and no prompt; `max_iterations: 0`).
 */
export function parseAgentFile(
  fileText: string,
  file: string,
  source: SubagentSource,
  warnings: string[],
): SubagentSpec | undefined {
  const split = splitFrontmatter(fileText);
  if ('error' in split) {
    warnings.push(`${file}: ${split.error}`);
    return undefined;
  }
  const fields = parseFrontmatter(split.header);
  if ('error' in fields) {
    warnings.push(`${file}: invalid frontmatter: ${fields.error}`);
    return undefined;
  }
  const parsed = (source === 'builtin' ? BuiltinHeaderSchema : AgentHeaderSchema).safeParse(fields.values);
  if (!parsed.success) {
    warnings.push(`${file}: ${parsed.error.issues.map((issue) => `"${issue.path.join('.')}" ${issue.message}`).join('; ')}`);
    return undefined;
  }
  const meta: z.infer<typeof BuiltinHeaderSchema> = parsed.data;
  const name = meta.name ?? basename(file, '.md');
  if (!NAME_PATTERN.test(name)) {
    warnings.push(`${file}: invalid name "${name}" (letters, digits, spaces, - and _; starts with a letter; at most 64 chars)`);
    return undefined;
  }
  if (!meta.description) {
    warnings.push(`${file}: "description" is required (it tells the main agent when to use ${name})`);
    return undefined;
  }
  const uiOnly = meta.ui_only === true;
  const body = split.body.trim();
  if (body === '' && !uiOnly) {
    warnings.push(`${file}: the body (the system prompt of ${name}) is empty`);
    return undefined;
  }

  let tools = meta.tools?.map((t) => t.trim()).filter((t) => t !== '');
  const refused = tools?.filter((t) => MAIN_AGENT_ONLY_TOOLS.includes(t)) ?? [];
  if (refused.length > 0) {
    warnings.push(`${file}: ${refused.join(', ')} ${refused.length === 1 ? 'is' : 'are'} for the main agent only; ignored`);
    tools = tools!.filter((t) => !refused.includes(t));
  }

  let maxIterations = uiOnly ? 0 : SUBAGENT_MAX_ITERATIONS;
  if (meta.max_iterations !== undefined && !uiOnly) {
    const n = Number(meta.max_iterations);
    if (Number.isInteger(n) && n > 0 && n <= 200) maxIterations = n;
    else warnings.push(`${file}: max_iterations must be a whole number from 1 to 200; using ${SUBAGENT_MAX_ITERATIONS}`);
  }

  const prompt = source === 'builtin' ? { systemPromptTemplate: `subagents/${basename(file)}` } : { systemPrompt: body };
  return {
    name,
    description: meta.description,
    ...(uiOnly ? { uiOnly } : prompt),
    allowedTools: tools,
    ...(meta.model ? { model: meta.model } : {}),
    maxIterations,
    ...(tools?.includes('spawn_subagent') ? { canSpawn: true, spawnableTypes: ['Code-Explorer'] } : { canSpawn: false }),
    ...(meta.id_prefix ? { idPrefix: meta.id_prefix } : {}),
    ...(meta.plan_mode_safe ? { planModeSafe: true } : {}),
    source,
    ...(source === 'builtin' ? {} : { file }),
  };
}
