import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProjectInstructions, projectInstructionsPrompt } from '../../../../../src/core/context/prompt/project-instructions';

describe('project instructions', () => {
  let workspace: string;
  let home: string;
  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'opendev-ws-'));
    home = mkdtempSync(join(tmpdir(), 'opendev-home-'));
  });

  it('finds the user’s rules first, then OPENDEV.md, .opendev/OPENDEV.md, AGENTS.md and CLAUDE.md, each labelled', () => {
    writeFileSync(join(home, 'OPENDEV.md'), 'Always answer in British English.');
    writeFileSync(join(workspace, 'CLAUDE.md'), 'Claude rules.');
    writeFileSync(join(workspace, 'AGENTS.md'), 'Agents rules.');
    writeFileSync(join(workspace, 'OPENDEV.md'), 'OpenDev rules.');
    mkdirSync(join(workspace, '.opendev'));
    writeFileSync(join(workspace, '.opendev', 'OPENDEV.md'), 'Hidden rules.');
    const found = loadProjectInstructions({ workspaceRoot: workspace, home });
    assert.deepEqual(
      found.map((f) => [f.source, f.text]),
      [
        [join(home, 'OPENDEV.md'), 'Always answer in British English.'],
        ['OPENDEV.md', 'OpenDev rules.'],
        ['.opendev/OPENDEV.md', 'Hidden rules.'],
        ['AGENTS.md', 'Agents rules.'],
        ['CLAUDE.md', 'Claude rules.'],
      ],
    );
    const prompt = projectInstructionsPrompt(found);
    assert.match(prompt, /^## Project instructions/);
    assert.match(prompt, /<instructions source="AGENTS.md">\nAgents rules\.\n<\/instructions>/);
    assert.ok(prompt.indexOf('British English') < prompt.indexOf('OpenDev rules.'), 'user rules come before the project’s');
  });

  it('nothing to add when there are no instruction files (or only empty ones)', () => {
    writeFileSync(join(workspace, 'AGENTS.md'), '  \n');
    assert.deepEqual(loadProjectInstructions({ workspaceRoot: workspace, home }), []);
    assert.equal(projectInstructionsPrompt([]), '');
  });

  it('caps a long file and says where the rest is', () => {
    writeFileSync(join(workspace, 'OPENDEV.md'), `start ${'x'.repeat(30_000)} END-MARKER`);
    const found = loadProjectInstructions({ workspaceRoot: workspace, home });
    assert.equal(found[0]!.truncated, true);
    assert.equal(found[0]!.text.length, 20_000);
    const prompt = projectInstructionsPrompt(found);
    assert.doesNotMatch(prompt, /END-MARKER/);
    assert.match(prompt, /\[Cut at 20,000 characters: read OPENDEV\.md for the rest\.\]\n<\/instructions>/);
  });

  it('skips a file it cannot read, with a warning naming it', () => {
    mkdirSync(join(workspace, 'CLAUDE.md')); // a folder where a file was expected: reading fails
    writeFileSync(join(workspace, 'AGENTS.md'), 'Agents rules.');
    const warnings: string[] = [];
    const found = loadProjectInstructions({ workspaceRoot: workspace, home, onWarning: (w) => warnings.push(w) });
    assert.deepEqual(found.map((f) => f.source), ['AGENTS.md']);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /CLAUDE\.md/);
  });

  it('CLAUDE.md linked to AGENTS.md is included once', () => {
    writeFileSync(join(workspace, 'AGENTS.md'), 'Shared rules.');
    symlinkSync(join(workspace, 'AGENTS.md'), join(workspace, 'CLAUDE.md'));
    assert.deepEqual(loadProjectInstructions({ workspaceRoot: workspace, home }).map((f) => f.source), ['AGENTS.md']);
  });
});
