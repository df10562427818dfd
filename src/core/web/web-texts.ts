import { sectionText } from '../template-text';

/** The sections of `templates/web/texts.md`: what the web tools tell the model besides the data. */
export type WebTextName =
  | 'note_redirected'
  | 'note_truncated'
  | 'note_rendered'
  | 'note_not_rendered'
  | 'why_script_built'
  | 'why_render_asked'
  | 'note_no_text'
  | 'refuse_pdf'
  | 'refuse_file'
  | 'forbidden_address'
  | 'forbidden_resolved'
  | 'what_link_local'
  | 'what_metadata'
  | 'search_results'
  | 'search_none'
  | 'search_none_filtered'
  | 'search_bot_check'
  | 'screenshot_saved'
  | 'screenshot_pdf'
  | 'screenshot_next'
  | 'screen_not_capturable'
  | 'opened'
  | 'open_no_host'
  | 'open_failed';

/** A section of `templates/web/texts.md` rendered with `vars`. */
export function webText(name: WebTextName, vars: Record<string, string> = {}): string {
  return sectionText('web/texts.md', name, vars);
}
