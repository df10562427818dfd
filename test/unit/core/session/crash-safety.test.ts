import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Message } from '../../../../src/core/messages';
import { SessionStore } from '../../../../src/core/session/session-store';
import { highestMessage } from './session-child';

// Bundled (esbuild.config.mjs): a child that loads in half the time.
const CHILD = join(__dirname, 'session-child.bundle.js');
const KILLS = 50;
/** Kills run in independent lanes (an OPENDEV_HOME and a project each). */
const LANES = 3;

/** What a killed writer may leave for the next reader to note; anything else is damage. */
const EXPECTED_NOTES = [/the last line was cut off by an interrupted write; ignored/, /broke a stale lock/, /sessions-index\.json: missing; rebuilt/];

/** The writer's conversations: m0, m1, … in order, or a compaction summary followed by the next ones. */
function assertWellFormed(id: string, messages: readonly Message[]): void {
  let expected: number | undefined;
  for (const m of messages) {
    const summary = /^summary through m(\d+)$/.exec(m.content);
    const plain = /^m(\d+)(?: x+)?$/.exec(m.content);
    assert.ok(summary || plain, `session ${id}: unexpected message ${m.content.slice(0, 40)}`);
    const n = Number((summary ?? plain)![1]);
    if (summary) assert.equal(expected, undefined, `session ${id}: a summary only opens a conversation`);
    else assert.equal(n, expected ?? 0, `session ${id}: messages follow each other without gaps`);
    if (plain) assert.equal(m.role, n % 2 === 0 ? 'user' : 'assistant');
    expected = n + 1;
  }
}

describe('sessions survive a writer killed at any instant', () => {
  it(`${KILLS} SIGKILLs at random points: every session and the index load, and no saved message is lost`, async function () {
    this.timeout(300_000);
    let sessions = 0;
    let acks = 0;

    /** One OPENDEV_HOME and project, its writers killed one after another; lanes run side by side, so one's waits overlap another's work. */
    const lane = async (lane: number, kills: number) => {
      const home = mkdtempSync(join(tmpdir(), 'opendev-crash-'));
      const project = mkdtempSync(join(tmpdir(), 'opendev-crash-project-'));
      const notes: string[] = [];
      const store = new SessionStore({ home, onProblem: (p) => notes.push(p) });
      const acked = new Map<string, number>();
      /** What the writers noted when they resumed after a kill. */
      const childNotes: string[] = [];
      let seed = 12345 + lane;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      try {
        for (let round = 0; round < kills; round++) {
          const writer = spawn(process.execPath, [CHILD, 'write', home, project, String(lane * 1000 + round + 1)], { stdio: ['ignore', 'pipe', 'pipe'] });
          let stderr = '';
          writer.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
          const exited = new Promise<NodeJS.Signals | null>((resolve) => writer.on('exit', (_code, signal) => resolve(signal)));
          const firstAck = new Promise<void>((resolve) => {
            createInterface({ input: writer.stdout }).on('line', (line) => {
              if (line.startsWith('note ')) childNotes.push(line.slice(5));
              const ack = /^ack ([a-z0-9]{8}) (\d+)$/.exec(line);
              if (!ack) return;
              acks++;
              acked.set(ack[1]!, Math.max(acked.get(ack[1]!) ?? -1, Number(ack[2])));
              resolve();
            });
          });
          // Mostly mid-work (after its first save); sometimes while it starts up and resumes.
          if (random() < 0.8) await Promise.race([firstAck, exited]);
          await new Promise((resolve) => setTimeout(resolve, random() * 60));
          writer.kill('SIGKILL');
          assert.equal(await exited, 'SIGKILL', `the writer died on its own: ${stderr}`);

          const listed = await store.list(project);
          const onDisk = readdirSync(store.projectDir(project)).filter((n) => /^[a-z0-9]{8}\.json$/.test(n)).map((n) => n.slice(0, 8));
          assert.deepEqual(listed.map((m) => m.id).sort(), [...onDisk].sort(), 'the index lists every session on disk');
          for (const id of onDisk) {
            const loaded = await store.load(id, project);
            assert.ok(loaded, `session ${id} loads`);
            assertWellFormed(id, loaded.messages);
            const saved = acked.get(id);
            if (saved !== undefined) assert.ok(highestMessage(loaded.messages) >= saved, `session ${id}: m${saved} was saved, the file ends at m${highestMessage(loaded.messages)}`);
          }
          for (const id of acked.keys()) assert.ok(onDisk.includes(id), `session ${id} still exists`);
          const unexpected = [...notes, ...childNotes].filter((n) => !EXPECTED_NOTES.some((re) => re.test(n)));
          assert.deepEqual(unexpected, [], 'nothing but the traces of a killed writer');
        }
        sessions += acked.size;
      } finally {
        rmSync(home, { recursive: true, force: true });
        rmSync(project, { recursive: true, force: true });
      }
    };

    await Promise.all(Array.from({ length: LANES }, (_, l) => lane(l, Math.floor(KILLS / LANES) + (l < KILLS % LANES ? 1 : 0))));
    assert.ok(sessions >= 3 && acks >= KILLS, `the writers got real work done (${sessions} sessions, ${acks} saves)`);
  });
});
