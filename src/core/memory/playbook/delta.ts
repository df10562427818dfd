import * as z from 'zod';
import { BulletTagSchema, type Bullet, type Playbook } from './bullet';

// This file's schemas are built on their first parse (z.lazy): a start-up that reads none of its records does not pay for them.
/** The curator's edits to the playbook (ACE "DeltaBatch"), validated as model output. */
export const DeltaOperationSchema = z.lazy(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('add'), section: z.string().default('general'), content: z.string() }),
  z.object({ type: z.literal('update'), id: z.string(), content: z.string() }),
  z.object({ type: z.literal('tag'), id: z.string(), tag: BulletTagSchema }),
  z.object({ type: z.literal('remove'), id: z.string() }),
]));
export type DeltaOperation = z.infer<typeof DeltaOperationSchema>;

export const DeltaBatchSchema = z.lazy(() => z.object({ operations: z.array(DeltaOperationSchema) }));
export type DeltaBatch = z.infer<typeof DeltaBatchSchema>;

export interface DeltaLimits {
  /** Longest bullet content; longer content is cut. */
  maxContentChars: number;
  /** Most bullets a playbook holds; adds beyond it are refused. */
  maxBullets: number;
}

export const DEFAULT_DELTA_LIMITS: DeltaLimits = { maxContentChars: 300, maxBullets: 100 };

export interface DeltaOutcome {
  playbook: Playbook;
  /** What was skipped or adjusted, and why (unknown ids, duplicates, cut content). */
  notes: string[];
  changed: boolean;
}

/**
 * Applies a batch to a playbook without touching the input: a new playbook and notes come back.
 * Unknown ids are ignored with a note, an add that repeats an existing bullet is not added twice,
 * content is trimmed and capped, and new ids continue the `pb-<n>` numbering.
 */
export function applyDelta(playbook: Playbook, operations: readonly DeltaOperation[], now: Date, limits: DeltaLimits = DEFAULT_DELTA_LIMITS): DeltaOutcome {
  const bullets: Bullet[] = playbook.bullets.map((b) => ({ ...b }));
  const notes: string[] = [];
  const at = now.toISOString();
  let changed = false;
  let nextId = nextNumber(bullets);
  const find = (id: string, op: string): Bullet | undefined => {
    const bullet = bullets.find((b) => b.id === id.trim());
    if (!bullet) notes.push(`${op}: no bullet ${id}, ignored`);
    return bullet;
  };
  const cap = (content: string, op: string): string | undefined => {
    const text = content.trim().replace(/\s+/g, ' ');
    if (!text) {
      notes.push(`${op}: empty content, ignored`);
      return undefined;
    }
    if (text.length <= limits.maxContentChars) return text;
    notes.push(`${op}: content cut to ${limits.maxContentChars} characters`);
    return `${text.slice(0, limits.maxContentChars - 1)}…`;
  };

  for (const op of operations) {
    switch (op.type) {
      case 'add': {
        const content = cap(op.content, 'add');
        if (!content) break;
        const twin = bullets.find((b) => sameContent(b.content, content));
        if (twin) {
          notes.push(`add: same as ${twin.id}, not added again`);
          break;
        }
        if (bullets.length >= limits.maxBullets) {
          notes.push(`add: the playbook is full (${limits.maxBullets} bullets), not added`);
          break;
        }
        bullets.push({ id: `pb-${nextId++}`, section: sectionName(op.section), content, helpful: 0, harmful: 0, neutral: 0, createdAt: at, updatedAt: at });
        changed = true;
        break;
      }
      case 'update': {
        const bullet = find(op.id, 'update');
        const content = bullet && cap(op.content, `update ${bullet.id}`);
        if (!bullet || !content || content === bullet.content) break;
        bullet.content = content;
        bullet.updatedAt = at;
        changed = true;
        break;
      }
      case 'tag': {
        const bullet = find(op.id, 'tag');
        if (!bullet) break;
        bullet[op.tag] += 1;
        bullet.updatedAt = at;
        changed = true;
        break;
      }
      case 'remove': {
        const bullet = find(op.id, 'remove');
        if (!bullet) break;
        bullets.splice(bullets.indexOf(bullet), 1);
        changed = true;
        break;
      }
    }
  }
  return { playbook: { ...playbook, bullets }, notes, changed };
}

/** Lowercase words joined by dashes, at most 40 characters; `general` when nothing is left. */
export function sectionName(section: string): string {
  return section.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'general';
}

function sameContent(a: string, b: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/[\s.!;:,]+/g, ' ').trim();
  return norm(a) === norm(b);
}

function nextNumber(bullets: readonly Bullet[]): number {
  let max = 0;
  for (const b of bullets) {
    const n = /^pb-(\d+)$/.exec(b.id)?.[1];
    if (n) max = Math.max(max, Number(n));
  }
  return max + 1;
}
