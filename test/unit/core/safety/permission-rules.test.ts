import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { judgeCommand } from '../../../../src/core/safety/command-judge';
import { CAUTION_PRIORITY } from '../../../../src/core/safety/default-rules';
import { compareRules, ruleMatches, type PermissionRule } from '../../../../src/core/safety/permission-rule';
import { PermissionStore, projectPermissionsFile } from '../../../../src/core/safety/permission-store';

const rule = (r: Partial<PermissionRule> & Pick<PermissionRule, 'type' | 'action'>): PermissionRule => ({ id: `${r.type}:${r.pattern}`, priority: 50, source: 'user', ...r });
const command = (text: string) => ({ command: true as const, exact: [text], loose: [text] });

describe('permission rules', () => {
  it('prefix rules are word-bounded; command rules exact; patterns are whole-text globs or /regex/', () => {
    const prefix = rule({ type: 'prefix', pattern: 'git log', action: 'allow' });
    assert.equal(ruleMatches(prefix, command('git log')), true);
    assert.equal(ruleMatches(prefix, command('git log --oneline -5')), true);
    assert.equal(ruleMatches(prefix, command('git logout')), false);
    const exact = rule({ type: 'command', pattern: 'npm install', action: 'allow' });
    assert.equal(ruleMatches(exact, command('npm install')), true);
    assert.equal(ruleMatches(exact, command('npm install lodash')), false);
    const glob = rule({ type: 'pattern', pattern: 'ls -l?', action: 'allow' });
    assert.deepEqual(['ls -la', 'ls -lh', 'ls -lah'].map((c) => ruleMatches(glob, command(c))), [true, true, false]);
    const regex = rule({ type: 'pattern', pattern: '/^terraform\\s+(plan|validate)\\b/', action: 'allow' });
    assert.equal(ruleMatches(regex, command('terraform plan -out x')), true);
    assert.equal(ruleMatches(regex, command('terraform apply')), false);
  });

  it('an allow matches case-sensitively; a deny also catches other spellings (case-insensitive file systems)', () => {
    assert.equal(ruleMatches(rule({ type: 'prefix', pattern: 'npm', action: 'allow' }), command('NPM install')), false);
    assert.equal(ruleMatches(rule({ type: 'prefix', pattern: 'npm publish', action: 'deny' }), command('NPM Publish')), true);
  });

  it('file rules: `*` stays in one folder, `**` crosses folders; rules apply to their tool only', () => {
    const src = rule({ type: 'pattern', tool: 'edit_file', pattern: 'src/**/*.ts', action: 'allow' });
    const path = (p: string, tool = 'edit_file') => ({ tool, exact: [p], loose: [], paths: true });
    assert.equal(ruleMatches(src, path('src/a.ts')), true);
    assert.equal(ruleMatches(src, path('src/deep/er/b.ts')), true);
    assert.equal(ruleMatches(src, path('test/a.ts')), false);
    assert.equal(ruleMatches(src, path('src/a.ts', 'write_file')), false);
    assert.equal(ruleMatches(rule({ type: 'pattern', tool: '*_file', action: 'deny' }), path('x', 'write_file')), true);
  });

  it('file rules read globs as list_files and search do (braces, classes), from the root; deny and ask rules ignore case; other text takes `*` across "/"', () => {
    const path = (p: string) => ({ tool: 'edit_file', exact: [p], loose: [], paths: true });
    const braces = rule({ type: 'pattern', tool: 'edit_file', pattern: 'src/{api,web}/*.[jt]s', action: 'allow' });
    assert.equal(ruleMatches(braces, path('src/api/a.ts')), true);
    assert.equal(ruleMatches(braces, path('src/web/b.js')), true);
    assert.equal(ruleMatches(braces, path('src/db/c.ts')), false);
    assert.equal(ruleMatches(braces, path('src/api/a.py')), false);
    assert.equal(ruleMatches(rule({ type: 'pattern', tool: 'edit_file', pattern: '*.env', action: 'deny' }), path('config/prod.env')), false, 'a rule names the path from the root, not a name at any depth');
    assert.equal(ruleMatches(rule({ type: 'pattern', tool: 'edit_file', pattern: '**/.env', action: 'deny' }), path('config/.ENV')), true);
    assert.equal(ruleMatches(rule({ type: 'pattern', tool: 'edit_file', pattern: '**/.env', action: 'allow' }), path('config/.ENV')), false);
    assert.equal(ruleMatches(rule({ type: 'pattern', pattern: 'curl https://*', action: 'ask' }), command('curl https://example.com/a/b')), true);
  });

  it('the first match by priority wins; at equal priority session, project, user, default; then the longer pattern; then the stricter', () => {
    const sorted = (...rules: PermissionRule[]) => [...rules].sort(compareRules).map((r) => r.id);
    assert.deepEqual(sorted(rule({ id: 'low', type: 'prefix', pattern: 'x', action: 'deny', priority: 10 }), rule({ id: 'high', type: 'prefix', pattern: 'x', action: 'allow', priority: 60 })), ['high', 'low']);
    assert.deepEqual(sorted(rule({ id: 'user', type: 'prefix', pattern: 'x', action: 'deny' }), rule({ id: 'project', type: 'prefix', pattern: 'x', action: 'allow', source: 'project' })), ['project', 'user']);
    assert.deepEqual(sorted(rule({ id: 'short', type: 'prefix', pattern: 'npm', action: 'deny' }), rule({ id: 'long', type: 'prefix', pattern: 'npm test', action: 'allow' })), ['long', 'short']);
    assert.deepEqual(sorted(rule({ id: 'allow', type: 'prefix', pattern: 'rm', action: 'allow' }), rule({ id: 'deny', type: 'prefix', pattern: 'rm', action: 'deny' })), ['deny', 'allow']);

    const ws = '/work/project';
    const judge = (rules: PermissionRule[], c: string) => judgeCommand(c, { rules: [...rules].sort(compareRules), level: 'manual', workspaceRoot: ws });
    // What a user would notice: "npm test" allowed although "npm" is denied, because the longer rule is more specific.
    assert.equal(judge([rule({ type: 'prefix', pattern: 'npm', action: 'deny' }), rule({ type: 'prefix', pattern: 'npm test', action: 'allow' })], 'npm test --watch').action, 'allow');
    assert.equal(judge([rule({ type: 'prefix', pattern: 'npm', action: 'deny', priority: 70 }), rule({ type: 'prefix', pattern: 'npm test', action: 'allow' })], 'npm test').action, 'deny');
  });

  describe('permission files', () => {
    let home: string;
    let workspace: string;
    const userFile = () => join(home, 'permissions.json');
    const write = (file: string, value: unknown) => {
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
    };
    const decide = (store: PermissionStore, c: string, level: 'manual' | 'auto' = 'manual') => judgeCommand(c, { rules: store.rules(), level, workspaceRoot: workspace }).action;

    beforeEach(() => {
      home = mkdtempSync(join(tmpdir(), 'opendev-perm-home-'));
      workspace = mkdtempSync(join(tmpdir(), 'opendev-perm-ws-'));
    });
    afterEach(() => {
      rmSync(home, { recursive: true, force: true });
      rmSync(workspace, { recursive: true, force: true });
    });

    it('reads user and project rules; the project wins for the same pattern; other user rules still apply', () => {
      write(userFile(), { rules: [{ type: 'prefix', pattern: 'npm test', action: 'deny' }, { type: 'prefix', pattern: 'make', action: 'allow' }] });
      write(projectPermissionsFile(workspace), { rules: [{ type: 'prefix', pattern: 'npm test', action: 'allow' }] });
      const store = PermissionStore.load({ home, workspaceRoot: workspace, projectTrusted: true });
      assert.deepEqual(store.warnings, []);
      assert.equal(decide(store, 'npm test'), 'allow', 'project rule replaced the user rule');
      assert.equal(decide(store, 'make build'), 'allow');
      assert.equal(decide(store, 'npm publish'), 'ask');
    });

    it('an untrusted folder: its allow rules do not apply and replace no user rule; its ask and deny rules do', () => {
      write(userFile(), { rules: [{ type: 'prefix', pattern: 'npm test', action: 'deny' }] });
      write(projectPermissionsFile(workspace), {
        rules: [
          { type: 'pattern', pattern: '*', action: 'allow', priority: 99 },
          { type: 'prefix', pattern: 'npm test', action: 'allow' },
          { type: 'prefix', pattern: 'git push', action: 'deny' },
          { type: 'prefix', pattern: 'ls', action: 'ask' },
        ],
      });
      const store = PermissionStore.load({ home, workspaceRoot: workspace });
      assert.equal(decide(store, 'npm test'), 'deny', 'the user rule stands');
      assert.equal(decide(store, 'touch x'), 'ask', 'allow * is ignored');
      assert.equal(decide(store, 'git push origin main'), 'deny');
      assert.equal(decide(store, 'ls', 'auto'), 'ask', 'an ask rule makes even auto ask');
    });

    it('a corrupt or hand-broken file is reported and ignored, never changed; the other file still applies', () => {
      write(userFile(), '{ "rules": [ { "type": "prefix", ');
      write(projectPermissionsFile(workspace), { rules: [{ type: 'prefix', pattern: 'make', action: 'allow' }] });
      const store = PermissionStore.load({ home, workspaceRoot: workspace, projectTrusted: true });
      assert.equal(store.warnings.length, 1);
      assert.match(store.warnings[0]!, /permissions\.json is not valid JSON .*ignored until it is fixed/);
      assert.equal(decide(store, 'make'), 'allow');
      assert.equal(readFileSync(userFile(), 'utf8'), '{ "rules": [ { "type": "prefix", ');

      write(userFile(), { allow: ['npm *'] });
      assert.match(PermissionStore.load({ home, workspaceRoot: workspace, projectTrusted: true }).warnings[0]!, /is not of the form \{ "rules"/);
    });

    it('an invalid rule is skipped with a reason; the valid ones apply', () => {
      write(userFile(), {
        rules: [
          { type: 'prefix', pattern: 'make', action: 'allow' },
          { type: 'prefix', pattern: 'rm', acton: 'deny' },
          { type: 'pattern', pattern: '/([a-z/', action: 'deny' },
          { type: 'danger', pattern: 'terraform destroy*', action: 'allow' },
          { type: 'prefix', pattern: 'x', action: 'allow', priority: 100 },
        ],
      });
      const store = PermissionStore.load({ home, workspaceRoot: workspace, projectTrusted: true });
      assert.equal(store.warnings.length, 4);
      assert.match(store.warnings.join('\n'), /rule 2 is ignored: .*acton/);
      assert.match(store.warnings.join('\n'), /rule 3 is ignored: invalid regular expression/);
      assert.match(store.warnings.join('\n'), /rule 4 is ignored: a danger rule always denies/);
      assert.match(store.warnings.join('\n'), /rule 5 is ignored: priority/);
      assert.equal(decide(store, 'make'), 'allow');
    });

    it('user danger rules refuse at priority 100, whatever else allows', () => {
      write(userFile(), { rules: [{ type: 'danger', pattern: 'terraform destroy*' }, { type: 'pattern', pattern: '*', action: 'allow', priority: 99 }] });
      write(projectPermissionsFile(workspace), { rules: [{ type: 'prefix', pattern: 'terraform', action: 'allow', priority: 99 }] });
      const store = PermissionStore.load({ home, workspaceRoot: workspace, projectTrusted: true });
      const verdict = judgeCommand('terraform plan && terraform destroy -auto-approve', { rules: store.rules(), level: 'auto', workspaceRoot: workspace });
      assert.equal(verdict.action, 'deny');
      assert.equal(verdict.decidedBy, 'danger');
    });

    it('"Always allow" rules are saved to the user file (atomically, scoped to the workspace) and hold in a new store', async () => {
      write(userFile(), { rules: [{ type: 'prefix', pattern: 'make', action: 'allow' }], note: 'kept' });
      const first = PermissionStore.load({ home, workspaceRoot: workspace, projectTrusted: true });
      assert.equal(decide(first, 'npm test'), 'ask');
      assert.equal(await first.remember([{ type: 'prefix', pattern: 'npm test', action: 'allow', workspace }]), undefined);
      assert.equal(decide(first, 'npm test'), 'allow', 'at once for the session');
      const saved = JSON.parse(readFileSync(userFile(), 'utf8')) as { rules: Array<Record<string, unknown>>; note: string };
      assert.equal(saved.note, 'kept');
      assert.deepEqual(saved.rules.map((r) => r.pattern), ['make', 'npm test']);
      assert.equal(saved.rules[1]!.workspace, workspace);

      assert.equal(decide(PermissionStore.load({ home, workspaceRoot: workspace, projectTrusted: true }), 'npm test'), 'allow', 'after a restart');
      const elsewhere = mkdtempSync(join(tmpdir(), 'opendev-perm-other-'));
      assert.equal(decide(PermissionStore.load({ home, workspaceRoot: elsewhere }), 'npm test'), 'ask', 'not in another workspace');
      rmSync(elsewhere, { recursive: true, force: true });
    });

    it('never overwrites a damaged user file: "Always allow" then holds for the session only, with a warning', async () => {
      write(userFile(), 'not json at all');
      const store = PermissionStore.load({ home, workspaceRoot: workspace, projectTrusted: true });
      const warning = await store.remember([{ type: 'prefix', pattern: 'npm test', action: 'allow', workspace }]);
      assert.match(warning ?? '', /not valid JSON.*this session only/);
      assert.equal(readFileSync(userFile(), 'utf8'), 'not json at all');
      assert.equal(decide(store, 'npm test'), 'allow');
    });

    it('keeps the built-in caution rules: git reset asks even in Auto unless a rule above priority 90 allows it', () => {
      const store = PermissionStore.load({ home, workspaceRoot: workspace, projectTrusted: true });
      assert.equal(decide(store, 'git reset --hard', 'auto'), 'ask');
      write(userFile(), { rules: [{ type: 'prefix', pattern: 'git reset', action: 'allow', priority: CAUTION_PRIORITY + 1 }] });
      assert.equal(decide(PermissionStore.load({ home, workspaceRoot: workspace, projectTrusted: true }), 'git reset --hard', 'auto'), 'allow');
    });
  });
});
