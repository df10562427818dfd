import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expandMentions, type MentionSources } from '../../../../src/core/mentions/mention-expander';
import { workspaceMentionSources } from '../../../../src/core/mentions/workspace-mention-sources';

const MATH = 'export const PI = 3.14159;\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n';

describe('expanding @ mentions into context for the model', () => {
  let root: string;
  let sources: MentionSources;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'opendev-mentions-'));
    writeFileSync(join(root, 'math.ts'), MATH);
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'app.ts'), 'console.log(1);\n');
    writeFileSync(join(root, 'src', 'util.ts'), 'export {};\n');
    sources = {
      ...workspaceMentionSources(root),
      problems: async () => 'math.ts:2:10 error: Cannot find name "b2" [ts 2304]',
      terminal: async () => '$ npm test\n1 failing\n✗ exit 1',
    };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('attaches a file as read_file shows it, inside a delimited block after the text', async () => {
    const { mentions, context } = await expandMentions('what does @math.ts export?', sources);
    assert.deepEqual(mentions, [{ target: 'math.ts', kind: 'file', ok: true }]);
    assert.ok(context);
    assert.match(context, /^<mentioned_context>/);
    assert.match(context, /<\/mentioned_context>$/);
    assert.match(context, /<file path="math\.ts">\n\s+1\texport const PI = 3\.14159;/);
    assert.match(context, /return a \+ b;/);
  });

  it('lists a folder, and gives @problems and @terminal from the host', async () => {
    const { mentions, context } = await expandMentions('look at @src/ with @problems and @terminal', sources);
    assert.deepEqual(mentions.map((m) => `${m.kind}:${m.target}`), ['folder:src', 'problems:problems', 'terminal:terminal']);
    assert.match(context!, /<folder path="src">[\s\S]*app\.ts[\s\S]*util\.ts[\s\S]*<\/folder>/);
    assert.match(context!, /<problems>[\s\S]*Cannot find name "b2"/);
    assert.match(context!, /<terminal>[\s\S]*1 failing/);
  });

  it('leaves a path that is not in the workspace as plain text, and attaches each target once', async () => {
    const { mentions, context } = await expandMentions('ping @nobody and @math.ts twice: @./math.ts, also @../outside.txt', sources);
    assert.deepEqual(mentions, [{ target: 'math.ts', kind: 'file', ok: true }]);
    assert.equal(context!.match(/<file /g)?.length, 1);
    const none = await expandMentions('email me at dev@example.com', sources);
    assert.deepEqual(none, { mentions: [] });
  });

  it('tells the model when a mention could not be read (a binary file)', async () => {
    writeFileSync(join(root, 'logo.bin'), Buffer.from([0, 1, 2, 0, 3]));
    const { mentions, context } = await expandMentions('see @logo.bin', sources);
    assert.deepEqual(mentions, [{ target: 'logo.bin', kind: 'file', ok: false }]);
    assert.match(context!, /Could not attach logo\.bin: .*binary file/);
  });

  it('stops attaching at the size cap and says what was left out', async () => {
    writeFileSync(join(root, 'big.txt'), `${'x'.repeat(50)}\n`.repeat(100));
    const { mentions, context } = await expandMentions('@big.txt @math.ts', sources, 3_000);
    assert.equal(mentions.length, 2, 'both are mentioned');
    assert.doesNotMatch(context!, /<file path="big\.txt">/);
    assert.match(context!, /<file path="math\.ts">/);
    assert.match(context!, /big\.txt were left out: the attached context reached its size limit \(3,000 characters\)/);
  });

  it('@git gives the real working-tree diff, with untracked files, and says when there is no repository', async () => {
    const notRepo = await expandMentions('@git', sources);
    assert.deepEqual(notRepo.mentions, [{ target: 'git', kind: 'git', ok: false }]);
    assert.match(notRepo.context!, /not a git repository/);

    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'start');
    writeFileSync(join(root, 'math.ts'), MATH.replace('3.14159', 'Math.PI'));
    writeFileSync(join(root, 'notes.md'), 'new\n');
    const { mentions, context } = await expandMentions('review @git', sources);
    assert.deepEqual(mentions, [{ target: 'git', kind: 'git', ok: true }]);
    assert.match(context!, /<git_diff>[\s\S]*-export const PI = 3\.14159;\n\+export const PI = Math\.PI;/);
    assert.match(context!, /Untracked files \(1\):\nnotes\.md/);
  });
});
