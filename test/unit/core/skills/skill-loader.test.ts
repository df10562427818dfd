import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadSkills, MAX_SKILL_FILE_BYTES, MAX_SKILLS } from '../../../../src/core/skills/skill-loader';
import { claudeSkills, projectSkills, put, skillDirs, skillText, userSkills, type SkillDirs } from './skill-fixtures';

describe('Skills loader: tiers, layouts and problems', () => {
  let d: SkillDirs;
  const load = () => loadSkills({ workspaceRoot: d.workspace, home: d.home, builtinDir: d.builtin });
  beforeEach(() => {
    d = skillDirs();
  });

  it('a project skill beats a user skill, which beats a builtin one, by name (ignoring case)', () => {
    put(d.builtin, 'deploy.md', skillText('deploy', 'Use when deploying (builtin).', 'Builtin steps.'));
    put(userSkills(d), 'deploy.md', skillText('Deploy', 'Use when deploying (user).', 'User steps.'));
    put(projectSkills(d), 'deploy.md', skillText('deploy', 'Use when deploying (project).', 'Project steps.'));
    put(userSkills(d), 'lint.md', skillText('lint', 'Use when linting (user).', 'Lint steps.'));
    put(d.builtin, 'lint.md', skillText('lint', 'Use when linting (builtin).', 'Builtin lint.'));
    put(d.builtin, 'only-builtin.md', skillText(undefined, 'Use when nothing else fits.', 'Builtin only.'));

    const catalog = load();
    assert.deepEqual(catalog.warnings, []);
    assert.deepEqual(catalog.skills.map((s) => `${s.name}:${s.tier}:${s.body}`), ['deploy:project:Project steps.', 'lint:user:Lint steps.', 'only-builtin:builtin:Builtin only.']);
    assert.deepEqual(catalog.get('DEPLOY')!.overrides.map((o) => o.tier), ['builtin', 'user']);
    assert.equal(catalog.get('only-builtin')!.name, 'only-builtin', 'the file name is the default name');
  });

  it('reads the folder layout (<name>/SKILL.md), with its folder, and Claude Code skills in .claude/skills', () => {
    put(projectSkills(d), 'release/SKILL.md', skillText('release', 'Use when cutting a release.', 'Run scripts/release.sh.'));
    put(projectSkills(d), 'release/scripts/release.sh', 'echo release\n');
    put(claudeSkills(d), 'pdf-forms/SKILL.md', '---\nname: pdf-forms\ndescription: Fill PDF forms. Use when the user has a PDF form.\nallowed-tools: Read, Bash\nmetadata:\n  version: 1.2\n  owner: docs-team\n---\n# PDF forms\nSteps.\n');
    // The same name in both project folders: .opendev/skills wins.
    put(claudeSkills(d), 'release/SKILL.md', skillText('release', 'Use when releasing (claude).', 'Claude steps.'));

    const catalog = load();
    const release = catalog.get('release')!;
    assert.equal(release.folder, join(projectSkills(d), 'release'));
    assert.equal(release.file, join(projectSkills(d), 'release', 'SKILL.md'));
    assert.equal(release.body, 'Run scripts/release.sh.');
    assert.deepEqual(release.overrides.map((o) => o.file), [join(claudeSkills(d), 'release', 'SKILL.md')]);
    const pdf = catalog.get('pdf-forms')!;
    assert.equal(pdf.tier, 'project');
    assert.equal(pdf.body, '# PDF forms\nSteps.', 'frontmatter stripped; nested metadata ignored');
    assert.deepEqual(catalog.skillDirs().sort(), [join(claudeSkills(d), 'pdf-forms'), join(projectSkills(d), 'release')].sort());
    assert.equal(catalog.warnings.length, 1, catalog.warnings.join('\n'));
    assert.match(catalog.warnings[0]!, /pdf-forms.*should start "Use when…".*loaded anyway/);
  });

  it('reports broken files with the file and the reason, and keeps loading the others', () => {
    const dir = projectSkills(d);
    const noHeader = put(dir, 'no-header.md', '# Just markdown\n');
    const unclosed = put(dir, 'unclosed.md', '---\nname: unclosed\ndescription: Use when x.\n');
    const noDescription = put(dir, 'no-description.md', skillText('no-description', undefined, 'Body.'));
    const badName = put(dir, 'bad.md', skillText('bad name!', 'Use when x.', 'Body.'));
    const emptyBody = put(dir, 'empty.md', skillText('empty', 'Use when x.', ''));
    const badYaml = put(dir, 'yaml.md', '---\nname: yaml\ndescription: "open\n---\nBody.\n');
    const huge = put(dir, 'huge.md', skillText('huge', 'Use when x.', 'x'.repeat(MAX_SKILL_FILE_BYTES + 1)));
    mkdirSync(join(dir, 'no-skill-file'));
    put(dir, 'good.md', skillText('good', 'Use when all is well.', 'Good body.'));
    put(dir, 'twin/SKILL.md', skillText('good', 'Use when twin.', 'Twin body.'));
    put(dir, 'README.md', '# About these skills\n');
    put(dir, 'notes.txt', 'not a skill');

    const catalog = load();
    assert.deepEqual(catalog.skills.map((s) => s.name), ['good']);
    assert.equal(catalog.get('good')!.body, 'Good body.', 'the first of two same-named skills in one folder is kept');
    const has = (file: string, reason: RegExp) => assert.ok(catalog.warnings.some((w) => w.startsWith(file) && reason.test(w)), `${file} ${reason}:\n${catalog.warnings.join('\n')}`);
    has(noHeader, /missing YAML frontmatter/);
    has(unclosed, /not closed/);
    has(noDescription, /"description" is required/);
    has(badName, /invalid "name"/);
    has(emptyBody, /body is empty/);
    has(badYaml, /unterminated quoted value/);
    has(huge, /over the 100 KB/);
    has(join(dir, 'no-skill-file'), /without a SKILL\.md/);
    has(join(dir, 'twin', 'SKILL.md'), /already defined in .*good\.md/);
    assert.equal(catalog.warnings.length, 9, catalog.warnings.join('\n'));
  });

  it('reads real YAML: a number or boolean where text is wanted, nested maps and lists ignored, YAML errors named', () => {
    const dir = claudeSkills(d);
    put(dir, '2024/SKILL.md', '---\nname: 2024\ndescription: Use when looking back at 2024.\n---\nYear.\n');
    put(dir, 'yes/SKILL.md', '---\ndescription: true\n---\nYes.\n');
    const meta = '---\nname: pdf\ndescription: Use when: filling PDF forms\nallowed-tools: [Read, Bash]\nmetadata:\n  author: someone\n  tags:\n    - pdf\n  limits: { pages: 10 }\n---\nFill.\n';
    put(dir, 'pdf/SKILL.md', meta);
    const listed = put(dir, 'listed/SKILL.md', '---\nname: [a, b]\ndescription: Use when x.\n---\nX.\n');
    const broken = put(dir, 'broken/SKILL.md', '---\nname: broken\ndescription: [Use when x.\n---\nX.\n');
    const twice = put(dir, 'twice/SKILL.md', '---\nname: twice\ndescription: Use when x.\nname: again\n---\nX.\n');
    const catalog = load();
    assert.deepEqual(catalog.skills.map((s) => s.name).sort(), ['2024', 'pdf', 'yes']);
    assert.equal(catalog.get('2024')!.description, 'Use when looking back at 2024.');
    assert.equal(catalog.get('yes')!.description, 'true');
    assert.equal(catalog.get('pdf')!.description, 'Use when: filling PDF forms');
    const warning = (file: string) => catalog.warnings.find((w) => w.startsWith(file)) ?? '';
    assert.match(warning(listed), /"name" must be a single line of text/);
    assert.match(warning(broken), /invalid frontmatter: line 2: Flow sequence/);
    assert.match(warning(twice), /invalid frontmatter: line 3: "name" is set twice/);
  });

  it('a missing folder is no problem; no skills at all is an empty catalog', () => {
    const catalog = load();
    assert.equal(catalog.size, 0);
    assert.deepEqual(catalog.warnings, []);
    assert.deepEqual(catalog.folders.map((f) => f.tier), ['builtin', 'user', 'project', 'project']);
  });

  it(`offers at most ${MAX_SKILLS} skills, the project's and user's before the builtin ones, and says so`, () => {
    for (let i = 0; i < MAX_SKILLS; i++) put(d.builtin, `b${String(i).padStart(3, '0')}.md`, skillText(undefined, 'Use when b.', 'B.'));
    put(projectSkills(d), 'mine.md', skillText(undefined, 'Use when mine.', 'Mine.'));
    const catalog = load();
    assert.equal(catalog.size, MAX_SKILLS);
    assert.ok(catalog.get('mine'), 'the project skill is kept');
    assert.equal(catalog.get('b099'), undefined, 'the last builtin one is left out');
    assert.match(catalog.warnings.join('\n'), /1 skill\(s\) left out: at most 100 are offered \(b099\)/);
  });

  it('a skill name close to the one asked for comes first', () => {
    for (const name of ['git-conventions', 'code-review', 'writing-tests']) put(d.builtin, `${name}.md`, skillText(name, 'Use when x.', 'X.'));
    const catalog = load();
    assert.equal(catalog.namesClosestTo('git-convention')[0], 'git-conventions');
    assert.equal(catalog.namesClosestTo('tests')[0], 'writing-tests');
    assert.equal(catalog.namesClosestTo('code-reveiw')[0], 'code-review');
  });
});
