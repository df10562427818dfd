import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadTemplate, templatesDir } from '../../templates';
import type { PromptContext } from './prompt-context';
import { PromptVariables } from './prompt-variables';
import { conditionHolds } from './section-condition';
import { readSectionMetadata, type SectionMetadata, type SectionMetadataResult } from './section-metadata';

/** A system prompt in two parts: `stable` is cached by providers that can (Anthropic); `dynamic` follows it. */
export interface TwoPartPrompt {
  stable: string;
  dynamic: string;
}

export interface PromptComposerOptions {
  /** The folder of section files under templates/ ("system/main"). */
  sectionsDir: string;
  /** A standalone template put before every section, in the stable part ("system/main.md"). */
  identityTemplate?: string;
  /** The whole prompt, used alone when the sections folder is missing from the installation. */
  fallbackTemplate: string;
  /** Section files that cannot be used (bad frontmatter, unknown condition); each reported once per process. */
  onWarning?: (message: string) => void;
}

interface SectionEntry extends SectionMetadata {
  /** Path under templates/, for loadTemplate. */
  template: string;
}

const metadataCache = new Map<string, SectionMetadataResult>();
const reported = new Set<string>();

/**
 * Builds a system prompt from section files (paper §2.3): filter by each section's condition on the
 * runtime context (frontmatter only, no body read yet) → sort by priority → load the bodies → resolve
 * `${VAR}` through PromptVariables → join with blank lines.
 */
export class PromptComposer {
  constructor(private readonly options: PromptComposerOptions) {}

  compose(ctx: PromptContext, variables: PromptVariables = PromptVariables.forContext(ctx)): string {
    const { stable, dynamic } = this.composeTwoPart(ctx, variables);
    return joinPromptParts(stable, dynamic);
  }

  /** Cacheable sections (and the identity) go to `stable`, the others to `dynamic`, each in priority order. */
  composeTwoPart(ctx: PromptContext, variables: PromptVariables = PromptVariables.forContext(ctx)): TwoPartPrompt {
    const dir = join(templatesDir(), this.options.sectionsDir);
    if (!existsSync(dir)) {
      return { stable: variables.render(loadTemplate(this.options.fallbackTemplate) ?? ''), dynamic: '' };
    }
    const stable: string[] = [];
    const dynamic: string[] = [];
    const identity = this.options.identityTemplate ? loadTemplate(this.options.identityTemplate) : undefined;
    if (identity) stable.push(variables.render(identity));
    const selected = this.sections(dir)
      .filter((s) => conditionHolds(s.condition, ctx))
      .sort((a, b) => a.priority - b.priority || a.name.localeCompare(b.name));
    for (const section of selected) {
      // A file removed since the listing is skipped, like one that was never there.
      const body = loadTemplate(section.template);
      if (!body) continue;
      (section.cacheable ? stable : dynamic).push(variables.render(body));
    }
    return { stable: joinPromptParts(...stable), dynamic: joinPromptParts(...dynamic) };
  }

  /** Every usable section file of the folder, by its frontmatter. */
  private sections(dir: string): SectionEntry[] {
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.md')).sort();
    } catch (err) {
      this.warnOnce(`${dir}: cannot list the prompt sections (${(err as Error).message})`);
      return [];
    }
    const entries: SectionEntry[] = [];
    for (const file of files) {
      const path = join(dir, file);
      let result = metadataCache.get(path);
      if (!result) {
        result = readSectionMetadata(path);
        metadataCache.set(path, result);
      }
      if (result.ok) entries.push({ ...result.metadata, template: `${this.options.sectionsDir}/${file}` });
      else this.warnOnce(`Prompt section ${path} skipped: ${result.error}`);
    }
    return entries;
  }

  private warnOnce(message: string): void {
    if (reported.has(message) || !this.options.onWarning) return;
    reported.add(message);
    this.options.onWarning(message);
  }
}

/** Non-empty parts separated by a blank line. */
export function joinPromptParts(...parts: ReadonlyArray<string | undefined>): string {
  return parts
    .map((p) => p?.trim() ?? '')
    .filter((p) => p !== '')
    .join('\n\n');
}
