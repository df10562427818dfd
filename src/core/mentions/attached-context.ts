import { loadTemplateSections } from '../templates';

/**
 * The user's own words of a saved prompt: the blocks a front end attached after them (the `@`
 * mention context, an image's description or the note that it could not be passed on) are cut
 * off, recognised by the opening line of their templates.
 */
export function withoutAttachedContext(content: string): string {
  let cut = content.length;
  for (const marker of markers()) {
    const at = content.indexOf(`\n\n${marker}`);
    if (at >= 0 && at < cut) cut = at;
  }
  return content.slice(0, cut);
}

let cached: string[] | undefined;

function markers(): string[] {
  if (cached) return cached;
  const first = (file: string, section: string) => loadTemplateSections(file).get(section)?.split('\n')[0]?.trim();
  cached = [first('chat/mentions.md', 'context'), first('chat/images.md', 'description'), first('chat/images.md', 'unreadable'), first('chat/images.md', 'saved')].filter((m): m is string => !!m && !m.includes('${'));
  return cached;
}
