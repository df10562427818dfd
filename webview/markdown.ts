/**
 * A small, safe markdown subset for streamed answers: fenced code blocks, inline code, bold,
 * paragraphs and line breaks. Everything goes through textContent, so model output can never
 * inject markup into the webview.
 */
export function renderMarkdown(target: HTMLElement, text: string): void {
  target.replaceChildren();
  const parts = text.split(/^```/m);
  parts.forEach((part, index) => {
    if (index % 2 === 1) target.append(codeBlock(part));
    else if (part.trim()) for (const para of part.split(/\n{2,}/)) if (para.trim()) target.append(paragraph(para));
  });
}

function codeBlock(part: string): HTMLElement {
  const newline = part.indexOf('\n');
  const language = newline >= 0 ? part.slice(0, newline).trim() : '';
  const code = newline >= 0 ? part.slice(newline + 1) : part;
  const pre = document.createElement('pre');
  const el = document.createElement('code');
  if (language) el.dataset.language = language;
  el.textContent = code.replace(/\n$/, '');
  pre.append(el);
  return pre;
}

function paragraph(text: string): HTMLElement {
  const p = document.createElement('p');
  const tokens = text.trim().split(/(`[^`\n]+`|\*\*[^*\n]+\*\*|\n)/);
  for (const token of tokens) {
    if (!token) continue;
    if (token === '\n') p.append(document.createElement('br'));
    else if (token.startsWith('`') && token.endsWith('`') && token.length > 2) {
      const code = document.createElement('code');
      code.textContent = token.slice(1, -1);
      p.append(code);
    } else if (token.startsWith('**') && token.endsWith('**') && token.length > 4) {
      const strong = document.createElement('strong');
      strong.textContent = token.slice(2, -2);
      p.append(strong);
    } else p.append(document.createTextNode(token));
  }
  return p;
}
