import type { SandboxStatus } from './command-sandbox';

/**
 * What the user is told, once per session, when commands run without the sandbox although they
 * wanted it: never silently weaker. Nothing is said when it is active, nor when they turned it off
 * themselves (the status bar, the footer and /config show both).
 */
export function sandboxNotice(status: SandboxStatus): { text: string; level: 'info' | 'warning' } | undefined {
  if (status.state !== 'unavailable') return undefined;
  return {
    text: `Commands run unsandboxed, with your full access: ${status.reason}. To fix it: ${status.fix}. Until then each command is judged by its text alone, as before.`,
    level: 'warning',
  };
}

/** One word for the status bar, the chat footer and /config. */
export function sandboxLabel(status: SandboxStatus | undefined): 'sandboxed' | 'unsandboxed' | 'sandbox starting' {
  if (!status) return 'sandbox starting';
  return status.state === 'active' ? 'sandboxed' : 'unsandboxed';
}

/** The policy and what was blocked, for /sandbox. */
export function describeSandbox(status: SandboxStatus, extra: { violations: ReadonlyArray<{ kind: string; target: string; why: string; command?: string }>; sessionHosts: readonly string[] }): string {
  const lines: string[] = [];
  if (status.state === 'off') lines.push('Sandbox: off (sandbox.enabled is false). Commands run with your full access.');
  else if (status.state === 'unavailable') lines.push(`Sandbox: unavailable — ${status.reason}.`, `Fix: ${status.fix}`, 'Commands run with your full access; each is judged by its text alone.');
  else {
    const p = status.policy;
    lines.push('Sandbox: active. Every command and the processes it starts run inside it.');
    lines.push('', 'Writable:', ...p.writable.map((w) => `  ${w}`));
    lines.push('', 'Read-only inside them:', ...p.readOnly.map((w) => `  ${w}`));
    lines.push('', 'Unreadable (secret locations):', ...p.unreadable.map((w) => `  ${w}`));
    lines.push('', 'Network: only these hosts', ...p.network.map((h) => `  ${h}`));
    if (extra.sessionHosts.length) lines.push('', `Allowed for this session: ${extra.sessionHosts.join(', ')}`);
  }
  lines.push('', extra.violations.length ? `Blocked in this session (${extra.violations.length}):` : 'Nothing blocked in this session.');
  for (const v of extra.violations.slice(-50)) lines.push(`  ${v.kind} ${v.target} — ${v.why}${v.command ? ` (${v.command})` : ''}`);
  return lines.join('\n');
}
