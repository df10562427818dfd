import { loadTemplateSections, renderTemplate } from '../../templates';

const TEXTS = 'edit/texts.md';

export type EditTextName = 'too_large' | 'unquoted' | 'unquoted_skipped' | 'unquoted_invented' | 'parse_regression' | 'parse_regression_summary';

/** One section of templates/edit/texts.md with its variables filled in. */
export function editText(name: EditTextName, vars: Record<string, string>): string {
  const template = loadTemplateSections(TEXTS).get(name);
  if (template === undefined) throw new Error(`templates/${TEXTS} has no "${name}" section`);
  return renderTemplate(template, vars);
}
