import * as z from 'zod';

export const BULLET_TAGS = ['helpful', 'harmful', 'neutral'] as const;
// This file's schemas are built on their first parse (z.lazy): a start-up that reads none of its records does not pay for them.
export const BulletTagSchema = z.lazy(() => z.enum(BULLET_TAGS));
export type BulletTag = z.infer<typeof BulletTagSchema>;

const count = z.number().int().min(0).default(0);

/**
 * One lesson of the ACE playbook. The counters say how often the reflector found it helpful,
 * harmful or neutral; `updatedAt` (last edit or tag) drives the recency score. Counters, section
 * and times have defaults so a bullet the user adds by hand needs only an id and content.
 */
export const BulletSchema = z.lazy(() => z.object({
  id: z.string().trim().min(1),
  section: z.string().trim().min(1).default('general'),
  content: z.string().trim().min(1),
  helpful: count,
  harmful: count,
  neutral: count,
  createdAt: z.iso.datetime({ offset: true }).default(() => new Date().toISOString()),
  updatedAt: z.iso.datetime({ offset: true }).default(() => new Date().toISOString()),
}));
export type Bullet = z.infer<typeof BulletSchema>;

export const PLAYBOOK_VERSION = 1;

/** The file `playbook.json` in the project folder. */
export const PlaybookSchema = z.lazy(() => z
  .object({
    version: z.literal(PLAYBOOK_VERSION).default(PLAYBOOK_VERSION),
    bullets: z.array(BulletSchema).default([]),
  })
  .superRefine((p, ctx) => {
    const seen = new Set<string>();
    for (const [i, b] of p.bullets.entries()) {
      if (seen.has(b.id)) ctx.addIssue({ code: 'custom', path: ['bullets', i, 'id'], message: `duplicate id ${b.id}` });
      seen.add(b.id);
    }
  }));
export type Playbook = z.infer<typeof PlaybookSchema>;

export function emptyPlaybook(): Playbook {
  return { version: PLAYBOOK_VERSION, bullets: [] };
}
