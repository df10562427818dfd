import type { UICallback } from '../ui';

const BLOCKING = new Set<PropertyKey>(['requestApproval', 'askUser', 'reviewPlan']);

/**
 * A UICallback that forwards to whichever front end runs the current turn. Long-lived services
 * (the subagent manager, the todo store's listeners) hold the relay; each turn points it at its UI.
 * Between turns, events still reach the last front end (a background subagent finishing late),
 * but blocking requests are absent, so they get the safe default: nobody is there to answer.
 */
export function createUiRelay(): { ui: UICallback; setTarget(target: UICallback | undefined): void } {
  let current: UICallback | undefined;
  let last: UICallback | undefined;
  const ui = new Proxy({} as UICallback, {
    get(_unused, prop) {
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
      if (target) last = target;
    },
  };
}
