import type { UICallback } from '../ui';
import type { InterruptToken } from './interrupt-token';

/**
 * Wraps a front end so every blocking request runs as a modal of the turn's interrupt token:
 * an interrupt cancels the open modal first, and a cancelled modal always settles (deny / no
 * answer), even if the front end never answers.
 */
export function guardModals(ui: UICallback, token: InterruptToken): UICallback {
  const guarded: Partial<UICallback> = {};
  if (ui.requestApproval) {
    const request = ui.requestApproval.bind(ui);
    guarded.requestApproval = (req) =>
      token.modalRequest((signal) => settleOnAbort(request(req, signal), signal, { action: 'deny' as const, feedback: 'cancelled by the user' }));
  }
  if (ui.askUser) {
    const ask = ui.askUser.bind(ui);
    guarded.askUser = (questions) => token.modalRequest((signal) => settleOnAbort(ask(questions, signal), signal, undefined));
  }
  if (ui.reviewPlan) {
    const review = ui.reviewPlan.bind(ui);
    guarded.reviewPlan = (plan) =>
      token.modalRequest((signal) => settleOnAbort(review(plan, signal), signal, { action: 'modify' as const, feedback: 'The user cancelled the review.' }));
  }
  // Everything else goes straight to the front end, with `this` bound to it.
  return new Proxy(ui, {
    get(target, prop, receiver) {
      if (prop in guarded) return guarded[prop as keyof UICallback];
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function settleOnAbort<T>(answer: Promise<T>, signal: AbortSignal, cancelled: T): Promise<T> {
  if (signal.aborted) return Promise.resolve(cancelled);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => resolve(cancelled);
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
