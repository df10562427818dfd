// Skills through the real CLI (`dist/cli.js` in a child process, against the fake provider).
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeProvider, toolResults } from '../../fixtures/fake-provider';
import { newHome, opendev } from './cli-harness';

describe('opendev CLI with skills', function () {
  this.timeout(60_000);
  const fake = new FakeProvider();
  let home: string;
  let workspace: string;
  const env = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home });

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    home = newHome();
    workspace = mkdtempSync(join(tmpdir(), 'opendev-cli-skills-'));
    const skill = join(workspace, '.opendev', 'skills', 'changelog');
    mkdirSync(skill, { recursive: true });
    writeFileSync(join(skill, 'SKILL.md'), '---\nname: changelog\ndescription: Use when editing CHANGELOG.md.\n---\nAdd entries under "Unreleased", newest first, one line each.\n');
  });

  it('-p /skills lists the project skill beside the builtin ones, without calling the model', async () => {
    const r = await opendev(['-p', '/skills', '-C', workspace], env());
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ {2}changelog +project +Use when editing CHANGELOG\.md\.$/m);
    assert.match(r.stdout, /^ {2}git-conventions +builtin +Use when committing/m);
    const one = await opendev(['-p', '/skills changelog', '-C', workspace], env());
    assert.ok(one.stdout.includes(`Folder: ${join(workspace, '.opendev', 'skills', 'changelog')}`), one.stdout);
    assert.equal(fake.requests.length, 0);
  });

  it('-p: the model sees the index, loads the skill with invoke_skill, and reads its supporting file outside the workspace', async () => {
    // A user skill: its folder is in OPENDEV_HOME, outside the workspace, and still readable.
    const folder = join(home, 'skills', 'changelog');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'SKILL.md'), '---\nname: changelog\ndescription: Use when editing CHANGELOG.md (user).\n---\nAdd entries under "Unreleased", newest first, one line each.\n');
    writeFileSync(join(folder, 'example.md'), '## Unreleased\n- Fix login timeout\n');
    writeFileSync(join(workspace, '.opendev', 'skills', 'changelog', 'SKILL.md'), '---\nname: other\ndescription: Use when other.\n---\nOther.\n');
    fake.enqueue(
      { toolCalls: [{ name: 'invoke_skill', arguments: { skill_name: 'changelog' } }] },
      { toolCalls: [{ name: 'read_file', arguments: { file_path: join(folder, 'example.md') } }] },
      { text: 'Changelog updated.' },
    );
    const r = await opendev(['-p', 'add a changelog entry', '-C', workspace], env());
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Changelog updated.\n');
    const system = JSON.stringify(fake.requests[0]!.body.messages[0]);
    assert.match(system, /- changelog: Use when editing CHANGELOG\.md \(user\)\./);
    assert.doesNotMatch(system, /newest first/, 'no body up front');
    const [loaded] = toolResults(fake.requests[1]!);
    assert.match(loaded!.content, /Add entries under "Unreleased", newest first/);
    assert.match(loaded!.content, /\(example\.md\)/);
    const [read] = toolResults(fake.requests[2]!);
    assert.match(read!.content, /Fix login timeout/);
  });

  it('-p: a broken skill file is a warning on stderr; the run goes on', async () => {
    writeFileSync(join(workspace, '.opendev', 'skills', 'broken.md'), 'no frontmatter here\n');
    fake.enqueue({ text: 'Hello.' });
    const r = await opendev(['-p', 'hi', '-C', workspace], env());
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Hello.\n');
    assert.match(r.stderr, /warning: Some skill files have problems[\s\S]*broken\.md: missing YAML frontmatter/);
  });
});
