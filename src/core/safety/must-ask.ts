import { PROTECTED_RULE_IDS } from './default-rules';
import type { Judgement, PartVerdict } from './judgement';
import type { MustAsk, MustAskKind, MustAskReason } from '../ui';

export type { MustAsk, MustAskKind, MustAskReason } from '../ui';

const STRICTNESS: Record<MustAskKind, number> = { secret: 4, protected: 4, unsandboxed: 3, hidden: 2, caution: 1, 'outside-workspace': 1 };

const HIDDEN_RULE = 'default:hidden-command';

/**
 * The concerns of an ask, from the judgement: boundary verdicts (of the call or of any simple
 * command in it), the built-in rules that ask, the hidden-command rule. Undefined when the ask
 * is only the approval level's (or a user's rule), which a blanket approval may answer.
 */
export function mustAskOf(judgement: Judgement): MustAsk | undefined {
  const found: MustAskReason[] = [];
  const add = (kind: MustAskKind, reason: string | undefined) => {
    const text = reason ?? 'it needs a person to decide';
    if (!found.some((f) => f.kind === kind && f.reason === text)) found.push({ kind, reason: text });
  };
  for (const part of judgement.parts ?? []) concernsOfPart(part, add);
  if (judgement.rule?.id === HIDDEN_RULE) add('hidden', judgement.reason);
  else concernsOfPart({ action: judgement.action, decidedBy: judgement.decidedBy, reason: judgement.reason, boundaryKind: judgement.boundaryKind, rule: judgement.rule }, add);
  // Something no "Always allow" may cover, that none of the above names: the strictest reading.
  if (found.length === 0 && judgement.askAlways) add('protected', judgement.reason);
  if (found.length === 0) return undefined;
  const all = [...found].sort((a, b) => STRICTNESS[b.kind] - STRICTNESS[a.kind]);
  return { ...all[0]!, all };
}

type VerdictFacts = Pick<PartVerdict, 'action' | 'decidedBy' | 'reason' | 'boundaryKind'> & { rule?: { id: string; source: string; action?: string } };

function concernsOfPart(v: VerdictFacts, add: (kind: MustAskKind, reason: string | undefined) => void): void {
  if (v.action !== 'ask') return;
  if (v.decidedBy === 'boundary') add(boundaryKindOf(v), v.reason);
  // A built-in rule that asks (a boundary verdict keeps the rule it overrode: that one counts too).
  if (v.rule?.source === 'default' && v.rule.id !== HIDDEN_RULE && v.rule.action !== 'allow') {
    add(PROTECTED_RULE_IDS.has(v.rule.id) ? 'protected' : 'caution', v.decidedBy === 'boundary' ? `it matches ${v.rule.id}` : v.reason);
  }
}

/** A boundary verdict without a kind (a future check) reads as the strictest kind it can be. */
function boundaryKindOf(v: VerdictFacts): MustAskKind {
  return v.boundaryKind ?? 'protected';
}
