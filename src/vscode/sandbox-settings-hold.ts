import type { Agent } from '../core/agent/agent';
import type { SandboxSettings } from '../core/config/sandbox-settings';

/**
 * Whether an agent already runs as the sandbox settings `now` say: the same switches and write
 * folders, no host taken away, and every host added one it allows for the session already (the
 * one "always allow" just saved). Then a settings change needs no new agent: rebuilding would
 * end its background tasks and forget the hosts allowed for the session.
 */
export function sandboxSettingsHold(agent: Pick<Agent, 'sandbox'>, now: SandboxSettings): boolean {
  const sandbox = agent.sandbox;
  if (!sandbox) return false;
  const was = sandbox.settings;
  if (was.enabled !== now.enabled || was.mcp !== now.mcp || !sameList(was.writeAllow, now.writeAllow)) return false;
  const allowed = new Set([...was.networkAllow, ...sandbox.hostsAllowedThisSession]);
  return was.networkAllow.every((h) => now.networkAllow.includes(h)) && now.networkAllow.every((h) => allowed.has(h));
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
