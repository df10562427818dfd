// Private by default, through the real CLI: everything a session leaves in OPENDEV_HOME (transcripts,
// the audit and operation logs, the shadow-git snapshots, offloaded outputs) is the user's alone, and
// an install from before is closed on its next start, with one note, its sessions still resumable.
// The files the agent writes in the workspace keep the modes the user's umask gives them.
import * as assert from 'node:assert/strict';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { FakeProvider, toolResults } from '../../fixtures/fake-provider';
import { newHome, opendev } from './cli-harness';

interface Entry {
  path: string;
  kind: 'folder' | 'file';
  mode: number;
}

/** Every folder and file under `root` (links not followed), the root itself first. */
function walk(root: string): Entry[] {
  const entries: Entry[] = [{ path: root, kind: 'folder', mode: statSync(root).mode & 0o7777 }];
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const info = lstatSync(path);
      if (info.isSymbolicLink()) continue;
      entries.push({ path, kind: info.isDirectory() ? 'folder' : 'file', mode: info.mode & 0o7777 });
      if (info.isDirectory()) visit(path);
    }
  };
  visit(root);
  return entries;
}

/**
 * What another user could reach: a folder not exactly 0700, a file with any group or other bit
 * (git's read-only objects are 0400: stricter than 0600, and fine).
 */
function offenders(home: string): string[] {
  return walk(home)
    .filter((e) => (e.kind === 'folder' ? e.mode !== 0o700 : (e.mode & 0o077) !== 0))
    .map((e) => `${e.mode.toString(8).padStart(4, '0')} ${e.kind} ${relative(home, e.path) || '.'}`);
}

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);
const names = (home: string) => walk(home).map((e) => relative(home, e.path));

describe('opendev CLI: OPENDEV_HOME is private', function () {
  this.timeout(120_000);
  const fake = new FakeProvider();
  let home: string;
  let ws: string;
  let umask: number;
  // The edit is undone: a loaded machine must not push its snapshot past the 2 s default budget.
  const env = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: home, OPENDEV_SESSION_TITLES: '0', OPENDEV_PLAYBOOK_LEARN: '0', OPENDEV_UNDO_BUDGET_MS: '60000' });
  const run = (args: string[]) => opendev([...args, '-C', ws, '--output-format', 'json', '--approval', 'auto'], env());

  before(async () => {
    // The usual umask (the CLI inherits it): without our modes, folders would be 0755 and files 0644.
    umask = process.umask(0o022);
    await fake.start();
  });
  after(async () => {
    process.umask(umask);
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    // A home OpenDev creates itself (mkdtemp's own folder would be 0700 already).
    home = join(newHome(), 'opendev-home');
    ws = mkdtempSync(join(tmpdir(), 'opendev-private-ws-'));
    writeFileSync(join(ws, 'math.ts'), 'export const add = (a: number, b: number) => a + b;\n');
    writeFileSync(join(ws, 'big.txt'), Array.from({ length: 2000 }, (_, i) => `line ${i} of a large file`).join('\n'));
  });

  it('a session leaves nothing in the home that another user could read; the workspace keeps its modes', async () => {
    fake.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { file_path: 'notes.txt', content: 'remember the milk\n' } }] },
      { toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { file_path: 'math.ts', old_content: 'a + b', new_content: 'b + a' } }] },
      // Over 8,000 characters: offloaded to the session's scratch folder.
      { toolCalls: [{ name: 'run_command', arguments: { command: 'cat big.txt' } }] },
      { toolCalls: [{ name: 'search', arguments: { pattern: 'large file' } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo from the background', background: true } }] },
      { text: 'Done.' },
    );
    const first = await run(['-p', 'note, edit, look around']);
    assert.equal(first.code, 0, first.stderr);
    assert.doesNotMatch(first.stderr, /open to other users/, 'a home OpenDev made itself needs no tightening');
    assert.ok(fake.requests.some((r) => toolResults(r).some((t) => /scratch\//.test(t.content))), 'the large output was offloaded');
    const id = JSON.parse(first.stdout).sessionId as string;

    // The undo of the edit restores the user's file: it is the workspace's, not OpenDev's.
    const undo = await run(['--continue', '-p', '/undo']);
    assert.equal(undo.code, 0, undo.stderr);
    assert.match(JSON.parse(undo.stdout).result, /Undid step \d+ \(edit_file\): 1 file restored/);

    const all = names(home);
    for (const expected of [`${id}.json`, `${id}.jsonl`, 'sessions-index.json', 'audit.jsonl', 'operations.jsonl']) {
      assert.ok(all.some((n) => n.endsWith(`/${expected}`)), `${expected} is in the home: ${all.join(', ')}`);
    }
    assert.ok(all.some((n) => /^snapshot\/[^/]+\/objects\//.test(n)), `the shadow repository holds objects: ${all.join(', ')}`);
    assert.ok(all.some((n) => new RegExp(`^scratch/${id}/run_command-.+\\.txt$`).test(n)), `the offloaded output is in scratch/: ${all.join(', ')}`);
    assert.deepEqual(offenders(home), [], 'every folder 0700, every file 0600 (or read-only 0400)');

    assert.equal(modeOf(join(ws, 'notes.txt')), '644', 'a file the agent wrote in the workspace');
    assert.equal(modeOf(join(ws, 'math.ts')), '644', 'a file the undo restored');
  });

  it('an older, world-readable home is made private on the next start, with one note, and its session resumes', async () => {
    fake.enqueue({ text: 'The answer is 42.' });
    const first = await run(['-p', 'what is the answer?']);
    assert.equal(first.code, 0, first.stderr);
    const id = JSON.parse(first.stdout).sessionId as string;
    writeFileSync(join(home, 'settings.json'), '{ "maxIterations": 20 }\n');
    mkdirSync(join(home, 'skills', 'deploy'), { recursive: true });
    writeFileSync(join(home, 'skills', 'deploy', 'run.sh'), '#!/bin/sh\necho deploy\n');
    // A link out of the home: its target is the user's, never touched.
    const outside = mkdtempSync(join(tmpdir(), 'opendev-outside-'));
    writeFileSync(join(outside, 'shared.txt'), 'for everyone\n');
    chmodSync(outside, 0o755);
    chmodSync(join(outside, 'shared.txt'), 0o644);
    symlinkSync(outside, join(home, 'linked'));
    // As an install from before left it: folders 0755, files 0644 (the script 0755).
    for (const e of walk(home)) chmodSync(e.path, e.kind === 'folder' || e.path.endsWith('run.sh') ? 0o755 : 0o644);
    assert.notDeepEqual(offenders(home), []);

    fake.enqueue({ text: 'Still 42.' });
    const next = await run(['--continue', '-p', 'and now?']);
    assert.equal(next.code, 0, next.stderr);
    const notes = next.stderr.split('\n').filter((l) => l.includes('open to other users'));
    assert.equal(notes.length, 1, next.stderr);
    assert.match(notes[0]!, new RegExp(`^opendev: ${home.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was open to other users; OpenDev made it private \\(folders 0700, files 0600; \\d+ changed\\)\\.$`));
    assert.equal(JSON.parse(next.stdout).sessionId, id, 'the session was resumed');
    assert.match(JSON.stringify(fake.requests.at(-1)!.body.messages), /The answer is 42\./, 'the model saw the earlier conversation');

    assert.deepEqual(offenders(home), []);
    assert.equal(modeOf(join(home, 'settings.json')), '600');
    assert.equal(modeOf(join(home, 'skills', 'deploy', 'run.sh')), '700', 'a script stays runnable by its owner');
    assert.equal(modeOf(outside), '755', 'the folder a link points to is not the home’s');
    assert.equal(modeOf(join(outside, 'shared.txt')), '644');

    fake.enqueue({ text: 'Yes.' });
    const third = await run(['--continue', '-p', 'sure?']);
    assert.equal(third.code, 0, third.stderr);
    assert.doesNotMatch(third.stderr, /open to other users/, 'the note comes once');
  });
});
