import type { UICallback } from '../ui';

/**
 * A UICallback that forwards to whichever front end runs the current turn. Long-lived services
 * (the subagent manager, the todo store's listeners) hold the relay; each turn points it at its UI.
 * Between turns events are dropped and blocking requests get the safe default (no method).
 */
export function createUiRelay(): { ui: UICallback; setTarget(target: UICallback | undefined): void } {
  let target: UICallback | undefined;
  const ui = new Proxy({} as UICallback, {
    get(_unused, prop) {
      if (prop === 'onTextDelta' || prop === 'onToolStart' || prop === 'onToolEnd') {
        return (...args: unknown[]) => (target?.[prop] as ((...a: unknown[]) => void) | undefined)?.apply(target, args);
      }
      const value: unknown = target ? Reflect.get(target, prop) : undefined;
      return typeof value === 'function' ? value.bind(target) : undefined;
    },
  });
  return { ui, setTarget: (next) => (target = next) };
}
