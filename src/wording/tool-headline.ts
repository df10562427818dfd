/**
 * A tool call's headline in words a person reads ("Read math.ts · 12 lines", "Ran npm test · exit 0 ·
 * 3.2 s", "Edited src/a.ts · +3 −1"), made from the call's name and arguments and how it ended. The
 * chat's tool cards, the OpenDev terminal and the CLI show it; the raw name, arguments and output
 * stay one click (or one flag) away. Nothing here is meant for the model.
 */
import * as l10n from '@vscode/l10n';
import { clip, duration, join, parseArgs } from './call-subjects';
import { exitOf, wordingOf } from './tool-wordings';

export interface ToolCallFacts {
  name: string;
  /** The call's arguments as the model sent them (JSON). */
  args: string;
  /** Absent while the call runs. */
  ended?: {
    ok: boolean;
    /** The tool's one-line summary for the UI (`✓ …` / `✗ kind: …`). */
    summary: string;
    /** How long the call took, measured by the front end (unknown for a resumed session's calls). */
    durationMs?: number;
  };
}

const MAX = 200;

/** What is happening, what happened, or that it failed and why (one line). */
export function toolHeadline(facts: ToolCallFacts): string {
  const a = parseArgs(facts.args);
  const wording = wordingOf(facts.name);
  if (!facts.ended) return clip(wording.running(a), MAX);
  const { ok, summary, durationMs } = facts.ended;
  if (ok) return clip(wording.done(a, summary, durationMs), MAX);
  // run_command's own failure (a non-zero exit) is a result, not an error: say the exit and time.
  const exit = facts.name === 'run_command' ? exitOf(summary, false) : undefined;
  if (exit) return clip(join(wording.failed(a), exit, duration(durationMs)), MAX);
  return clip(`${wording.failed(a)} — ${why(summary)}`, MAX);
}

/** "✗ not_found: math.ts does not exist. Check the path…" → "math.ts does not exist". */
function why(summary: string): string {
  const text = summary.replace(/^✗\s*/, '').replace(/^(permission|rejected|not_found|edit_mismatch|syntax|rate_limit|timeout|too_large|other):\s*/, '');
  const first = text.split(/(?<=[.!?])\s/)[0] ?? text;
  return first.replace(/\.$/, '') || l10n.t('it failed');
}
