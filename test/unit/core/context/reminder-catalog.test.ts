import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RECOVERY_REMINDERS } from '../../../../src/core/context/error-recovery';
import { allReminders, PAPER_CATEGORY_SIZES, REMINDER_CATALOG } from '../../../../src/core/context/reminder-catalog';
import { getReminder } from '../../../../src/core/context/reminders';
import { loadTemplateSections } from '../../../../src/core/templates';

const repoRoot = join(__dirname, '../../../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the reminder catalogue (paper appendix F)', () => {
  it('every catalogued reminder is in templates/reminders.md and renders with its variables, none left over', () => {
    for (const { name, vars } of allReminders()) {
      const values = Object.fromEntries(vars.map((v) => [v, `<${v}>`]));
      const text = getReminder(name, values);
      assert.ok(text, `${name} is missing from templates/reminders.md`);
      assert.doesNotMatch(text, /\$\{[A-Za-z0-9_.]+\}/, `${name} has a variable the catalogue does not list`);
      for (const v of vars) assert.ok(text.includes(`<${v}>`), `${name} does not use its documented variable ${v}`);
    }
  });

  it('has the six categories with the paper’s sizes (4, 5, 2, 8, 5, 2) and no name twice', () => {
    for (const [category, size] of Object.entries(PAPER_CATEGORY_SIZES)) {
      assert.equal(REMINDER_CATALOG[category as keyof typeof REMINDER_CATALOG].length, size, category);
    }
    const names = allReminders().map((r) => r.name);
    assert.equal(new Set(names).size, names.length);
  });

  it('the template has no section the catalogue does not know', () => {
    const known = new Set(allReminders().map((r) => r.name));
    const unknown = [...loadTemplateSections('reminders.md').keys()].filter((name) => !known.has(name));
    assert.deepEqual(unknown, []);
  });

  it('every reminder the code asks for by name is catalogued', () => {
    const known = new Set(allReminders().map((r) => r.name));
    const asked = new Set<string>();
    for (const file of sourceFiles(join(repoRoot, 'src'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/getReminder\(\s*'([a-z0-9_]+)'/g)) asked.add(m[1]!);
    }
    for (const name of Object.values(RECOVERY_REMINDERS)) asked.add(name);
    assert.ok(asked.size >= 15, `found the reminders the code uses (${asked.size})`);
    assert.deepEqual([...asked].filter((name) => !known.has(name)), []);
  });

  it('the recovery classes map onto the error-recovery category, and the JSON retries take ${ERROR}', () => {
    assert.deepEqual(new Set(Object.values(RECOVERY_REMINDERS)), new Set(REMINDER_CATALOG.error_recovery.map((r) => r.name)));
    for (const name of ['reflector_json_retry', 'curator_json_retry']) {
      assert.match(getReminder(name, { ERROR: 'missing field "bullet_tags"' })!, /missing field "bullet_tags"/);
    }
  });
});
