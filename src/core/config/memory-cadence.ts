// How often the memory systems call the compact model, as the settings default them (the classes
// themselves default to the paper's cadence of every 5 messages). Batches, not fewer systems:
// both still run and still read the whole history.

/**
 * Messages between two reflections of the playbook (setting `playbook.reflectEvery`; the paper:
 * 5). A batch of 40 (about two tasks of a dozen steps, or twenty chat messages) makes an eighth
 * of the calls, and each reflection sees whole tasks with their outcome instead of fragments.
 */
export const DEFAULT_REFLECT_EVERY = 40;

/**
 * New messages before dual memory's episodic summary is made again for the thinking call (setting
 * `memory.summaryEvery`; the paper: 5). The working memory beside it keeps the last 6 exchanges
 * verbatim (a user message, or an answer with its tool results: two messages a step while tools
 * run), so what a summary up to 9 messages old has not seen is mostly in the view already.
 */
export const DEFAULT_SUMMARY_EVERY = 10;

/** Both settings' bounds, in messages. */
export const MEMORY_CADENCE_RANGE = { min: 1, max: 1_000 } as const;
