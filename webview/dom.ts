/** Small DOM helpers: every text goes through textContent, never through HTML. */

type Child = Node | string | undefined | false;

export interface Props {
  class?: string;
  text?: string;
  /** Attributes (string values); `undefined` skips one. */
  attrs?: Record<string, string | undefined>;
  data?: Record<string, string>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props?: Props, ...children: Child[]): HTMLElementTagNameMap[K];
export function h(tag: string, props?: Props, ...children: Child[]): HTMLElement;
export function h(tag: string, props: Props = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.text !== undefined) el.textContent = props.text;
  for (const [name, value] of Object.entries(props.attrs ?? {})) if (value !== undefined) el.setAttribute(name, value);
  for (const [name, value] of Object.entries(props.data ?? {})) el.dataset[name] = value;
  for (const child of children) if (child !== undefined && child !== false) el.append(child);
  return el;
}

/** A `<vscode-button>` with a stable `data-action` (tests and keyboard users find it by that). */
export function button(label: string, action: string, onClick: () => void, options: { secondary?: boolean; title?: string } = {}): HTMLElement {
  const el = h('vscode-button', { text: label, attrs: { 'data-action': action, title: options.title, 'aria-label': options.title ?? label } });
  if (options.secondary) el.setAttribute('secondary', '');
  el.addEventListener('click', () => {
    if (!el.hasAttribute('disabled')) onClick();
  });
  return el;
}

/** Pretty-prints JSON arguments for display; anything else is shown as is. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function basename(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}
