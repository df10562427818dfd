// A second OpenDev process for the session tests (run with node, never by mocha):
//   write <home> <project> <seed>               resumes every session of the project and keeps writing
//                                               (appends, full saves, compactions) until killed; prints
//                                               "ack <id> <n>" once message m<n> is saved, "note …" for what it met
//   hold <home> <project> <id>                  holds the session's lock, printing "locked", until its
//                                               standard input ends; then prints "released"
//   front <home> <project> <id> <tag> <count>   resumes the session, prints "ready", waits for its standard
//                                               input to end, then appends <tag>-1 … <tag>-<count>, one save each
import { join } from 'node:path';
import type { Message } from '../../../../src/core/messages';
import { withFileLock } from '../../../../src/core/files/file-lock';
import { SessionStore, type SessionRecord } from '../../../../src/core/session/session-store';

const [mode, home, project, ...rest] = process.argv.slice(2);
let store: SessionStore;
const say = (line: string) => process.stdout.write(`${line}\n`);

/** Message n: user on even n, assistant on odd; every few a large one, so writes take a while. */
export function childMessage(n: number, big: boolean): Message {
  const content = `m${n}${big ? ` ${'x'.repeat(100_000 + ((n * 7919) % 900_000))}` : ''}`;
  return n % 2 === 0 ? { role: 'user', content } : { role: 'assistant', content, toolCalls: [] };
}

/** The highest n of the m<n> messages (a compaction summary counts as the n it summarises). */
export function highestMessage(messages: readonly Message[]): number {
  let max = -1;
  for (const m of messages) {
    const found = /^(?:summary through )?m(\d+)/.exec(m.content);
    if (found) max = Math.max(max, Number(found[1]));
  }
  return max;
}

interface Live {
  record: SessionRecord;
  conversation: Message[];
  next: number;
}

async function write(seed: number): Promise<void> {
  let random = seed;
  const next = () => (random = (random * 1103515245 + 12345) % 2147483648) / 2147483648;
  const sessions: Live[] = [];
  for (const meta of await store.list(project!)) {
    const loaded = await store.load(meta.id, project);
    if (loaded) sessions.push({ record: loaded.record, conversation: loaded.messages, next: highestMessage(loaded.messages) + 1 });
  }
  for (let op = 0; ; op++) {
    if (sessions.length < 3 && next() < 0.2) sessions.push({ record: await store.create(project!), conversation: [], next: 0 });
    const live = sessions[Math.floor(next() * sessions.length)];
    if (!live) continue;
    const roll = next();
    if (roll < 0.1 && live.conversation.length > 4) {
      // Compaction: the history becomes a summary plus the last two messages (a transcript rewrite).
      const top = live.next - 1;
      live.conversation = [{ role: 'user', content: `summary through m${top - 2}` }, ...live.conversation.slice(-2)];
      await store.sync(live.record, live.conversation);
    } else {
      live.conversation.push(childMessage(live.next++, next() < 0.3));
      if (roll < 0.3) await store.sync(live.record, live.conversation);
      else await store.syncTranscript(live.record, live.conversation);
    }
    say(`ack ${live.record.meta.id} ${live.next - 1}`);
  }
}

/** The parent's signal to go on: it ends our standard input. */
function stdinEnded(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.on('end', resolve).resume();
  });
}

async function hold(id: string): Promise<void> {
  const dir = store.projectDir(project!);
  await withFileLock(join(dir, `${id}.lock`), async () => {
    say('locked');
    await stdinEnded();
  });
  say('released');
}

async function front(id: string, tag: string, count: number): Promise<void> {
  const loaded = await store.load(id, project);
  if (!loaded) throw new Error(`no session ${id}`);
  say('ready');
  await stdinEnded();
  const conversation = loaded.messages;
  for (let i = 1; i <= count; i++) {
    conversation.push({ role: 'user', content: `${tag}-${i}` });
    await store.syncTranscript(loaded.record, conversation);
  }
  await store.sync(loaded.record, conversation);
  say(`done ${loaded.record.meta.id}`);
}

if (require.main === module) {
  // What it notes on the way (a torn line it found, a stale lock it broke) goes to the parent too.
  store = new SessionStore({ home: home!, lock: { timeoutMs: 20_000 }, onProblem: (p) => say(`note ${p}`) });
  const run =
    mode === 'write' ? write(Number(rest[0])) : mode === 'hold' ? hold(rest[0]!) : mode === 'front' ? front(rest[0]!, rest[1]!, Number(rest[2])) : Promise.reject(new Error(`unknown mode ${mode}`));
  run.catch((err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}
