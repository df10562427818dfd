// One version number: package.json's. The README's status line, the .vsix example, the changelog's
// newest entry and what the code reports all say the same, so a user never sees two.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const repo = join(__dirname, '../../../..');
const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

describe('the version number', () => {
  it('is the one in package.json in the README, its .vsix example and the changelog', () => {
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    assert.equal(/\*\*Status: ([^*]+?)\.\*\*/.exec(readme)?.[1], version, 'the README status line');
    for (const [, shown] of readme.matchAll(/opendev-[a-z0-9-]+-(\d+\.\d+\.\d+)\.vsix/g)) assert.equal(shown, version, 'the .vsix example');
    assert.equal(/^## (\S+)/m.exec(readFileSync(join(repo, 'CHANGELOG.md'), 'utf8'))?.[1], version, 'the newest changelog entry');
  });

  it('is written nowhere in the source: the code reports package.json\'s through the bundler', () => {
    const literal = /version:\s*['"]\d+\.\d+\.\d+['"]/;
    const offenders = sourceFiles(join(repo, 'src')).filter((f) => literal.test(readFileSync(f, 'utf8')));
    assert.deepEqual(offenders, []);
  });
});
