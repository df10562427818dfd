import * as vscode from 'vscode';

const MAX_PROBLEMS = 100;
const MAX_CHARS = 20_000;

/**
 * The workspace's diagnostics as the Problems view lists them (errors first, then warnings; info
 * and hints left out), one per line: `path:line:column severity: message [source code]`. Capped.
 */
export function problemsText(root: string | undefined): string {
  const lines: Array<{ severity: number; line: string }> = [];
  for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
    const path = root && uri.scheme === 'file' ? vscode.workspace.asRelativePath(uri, false) : uri.toString(true);
    for (const d of diagnostics) {
      if (d.severity !== vscode.DiagnosticSeverity.Error && d.severity !== vscode.DiagnosticSeverity.Warning) continue;
      const severity = d.severity === vscode.DiagnosticSeverity.Error ? 'error' : 'warning';
      const code = typeof d.code === 'object' ? d.code.value : d.code;
      const origin = [d.source, code].filter((x) => x !== undefined && x !== '').join(' ');
      const message = d.message.replace(/\s*\n\s*/g, ' ');
      lines.push({ severity: d.severity, line: `${path}:${d.range.start.line + 1}:${d.range.start.character + 1} ${severity}: ${message}${origin ? ` [${origin}]` : ''}` });
    }
  }
  if (lines.length === 0) return 'No errors or warnings are reported.';
  lines.sort((a, b) => a.severity - b.severity || a.line.localeCompare(b.line));
  const errors = lines.filter((l) => l.severity === vscode.DiagnosticSeverity.Error).length;
  const shown: string[] = [];
  let size = 0;
  for (const { line } of lines.slice(0, MAX_PROBLEMS)) {
    if (size + line.length > MAX_CHARS) break;
    shown.push(line);
    size += line.length + 1;
  }
  const more = lines.length > shown.length ? `\n… ${lines.length - shown.length} more not shown` : '';
  return `${errors} error(s), ${lines.length - errors} warning(s):\n${shown.join('\n')}${more}`;
}
