import type { UICallback } from '../ui';
import type { NotificationType } from './lifecycle';

export interface UserNotification {
  type: NotificationType;
  message: string;
  title: string;
}

const TITLE = 'OpenDev';

/**
 * Wraps a front end so that each request that waits for the user (an approval, a plan review, a
 * question) first calls `notify`, then goes to the front end unchanged. `notify` must not block:
 * Notification hooks cannot change or delay the request. Methods the front end lacks stay absent
 * (nobody to ask, nobody to notify).
 */
export function notifyingUI(ui: UICallback, notify: (n: UserNotification) => void): UICallback {
  const tell = (n: UserNotification) => {
    try {
      notify(n);
    } catch {
      /* a notification must never break the request */
    }
  };
  const wrapped: Partial<UICallback> = {};
  if (ui.requestApproval) {
    const request = ui.requestApproval.bind(ui);
    wrapped.requestApproval = (req, signal) => {
      tell({ type: 'permission_prompt', title: TITLE, message: req.title });
      return request(req, signal);
    };
  }
  if (ui.reviewPlan) {
    const review = ui.reviewPlan.bind(ui);
    wrapped.reviewPlan = (plan, signal) => {
      tell({ type: 'permission_prompt', title: TITLE, message: `Plan ready for review: ${plan.path}` });
      return review(plan, signal);
    };
  }
  if (ui.askUser) {
    const ask = ui.askUser.bind(ui);
    wrapped.askUser = (questions, signal) => {
      tell({ type: 'elicitation_dialog', title: TITLE, message: questions.map((q) => q.question).join('\n') });
      return ask(questions, signal);
    };
  }
  return new Proxy(ui, {
    get(target, prop, receiver) {
      if (prop in wrapped) return wrapped[prop as keyof UICallback];
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
