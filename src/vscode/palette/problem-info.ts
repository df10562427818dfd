import * as vscode from 'vscode';
import type { ProblemInfo } from './editor-prompts';

/** A diagnostic as the prompts list it: errors and warnings only (hints and infos are not problems to fix). */
export function problemInfo(d: vscode.Diagnostic): ProblemInfo[] {
  if (d.severity !== vscode.DiagnosticSeverity.Error && d.severity !== vscode.DiagnosticSeverity.Warning) return [];
  const code = typeof d.code === 'object' ? d.code.value : d.code;
  return [
    {
      line: d.range.start.line + 1,
      column: d.range.start.character + 1,
      severity: d.severity === vscode.DiagnosticSeverity.Error ? 'error' : 'warning',
      message: d.message,
      ...(d.source ? { source: d.source } : {}),
      ...(code !== undefined ? { code } : {}),
    },
  ];
}
