import { loadTemplateSections, renderTemplate } from './templates';

/**
 * One `--- name ---` section of a texts template, rendered with `vars`. A missing template or
 * section degrades to the name and the variables, never to nothing (the model still gets the facts).
 */
export function sectionText(file: string, name: string, vars: Record<string, string> = {}): string {
  const section = loadTemplateSections(file).get(name);
  return section ? renderTemplate(section, vars) : `${name} ${Object.values(vars).join(' ')}`.trim();
}
