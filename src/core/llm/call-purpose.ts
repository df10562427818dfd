// Why a model call is made. Every call names its purpose on the way to the provider, so what a
// session spends can be told apart by kind (bench/cost, an observer of ModelRoles) without reading
// prompt text. Providers never send it.

/**
 * `action`: the agent's own step (with tools, or the forced summary at the iteration cap); the
 * rest are the harness's auxiliary calls: the thinking phase (`thinking`, `critique` and
 * `refinement` at HIGH), dual memory's `episodic` summary, the playbook's `reflector` and
 * `curator`, the session `title`, a full `compaction`, and `vision` (images described for a model
 * that cannot read them, analyze_image), and `commit` (a commit message the editor asked for).
 */
export const CALL_PURPOSES = ['action', 'thinking', 'critique', 'refinement', 'episodic', 'reflector', 'curator', 'title', 'compaction', 'vision', 'commit'] as const;
export type CallPurpose = (typeof CALL_PURPOSES)[number];

/** Calls that do not act on the user's request themselves. */
export function isAuxiliary(purpose: CallPurpose): boolean {
  return purpose !== 'action';
}
