import type { UICallback } from '../ui';

const BLOCKING = new Set<PropertyKey>(['requestApproval', 'askUser', 'reviewPlan']);

/**
 * A UICallback that forwards to whichever front end runs the current turn. Long-lived services
 * (the subagent manager, the todo store's listeners) hold the relay; each turn points it at its UI.
 * Between turns, events still reach the last front end (a background subagent finishing late),
 * but blocking requests are absent, so they get the safe default: nobody is there to answer.
 * Notices given before any front end was set (problems found while the agent was built) are held
 * and shown by the first one.
 */
export function createUiRelay(): { ui: UICallback; setTarget(target: UICallback | undefined): void } {
  let current: UICallback | undefined;
  let last: UICallback | undefined;
  const held: Array<[text: string, level: 'info' | 'warning']> = [];
  const ui = new Proxy({} as UICallback, {
    get(_unused, prop) {
      if (prop === 'onNotice' && !last) return (text: string, level: 'info' | 'warning') => void held.push([text, level]);
      const target = BLOCKING.has(prop) ? current : last;
      const value: unknown = target ? Reflect.get(target, prop) : undefined;
      if (typeof value === 'function') return value.bind(target);
      // The three required events always exist, as no-ops when nobody listens.
      if (prop === 'onTextDelta' || prop === 'onToolStart' || prop === 'onToolEnd') return () => {};
      return undefined;
    },
  });
  return {
    ui,
    setTarget(target) {
      current = target;
      if (!target) return;
      last = target;
      for (const [text, level] of held.splice(0)) target.onNotice?.(text, level);
    },
  };
}
