import * as assert from 'node:assert/strict';
import { KeyedSerialQueue, SerialQueue } from '../../../src/core/serial-queue';

/** A job that waits until the test lets it finish, and records when it started and ended. */
function gatedJob(log: string[], name: string) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return {
    job: async () => {
      log.push(`start ${name}`);
      await gate;
      log.push(`end ${name}`);
      return name;
    },
    open: () => open(),
  };
}

describe('SerialQueue', () => {
  it('runs jobs one at a time in the order queued, and a failure does not stop the next', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const a = gatedJob(log, 'a');
    const first = queue.run(a.job);
    const failed = queue.run(async () => {
      log.push('b fails');
      throw new Error('b');
    });
    const third = queue.run(async () => (log.push('c'), 'c'));
    assert.equal(queue.pending, 3);
    await Promise.resolve();
    assert.deepEqual(log, ['start a'], 'nothing else starts while the first runs');
    a.open();
    assert.equal(await first, 'a');
    await assert.rejects(failed, /b/);
    assert.equal(await third, 'c');
    assert.deepEqual(log, ['start a', 'end a', 'b fails', 'c']);
    await queue.idle();
    assert.equal(queue.pending, 0);
  });

  it('idle() waits for what was queued before it, not for later jobs', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const a = gatedJob(log, 'a');
    void queue.run(a.job);
    let idle = false;
    const waiting = queue.idle().then(() => (idle = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(idle, false);
    a.open();
    await waiting;
    assert.deepEqual(log, ['start a', 'end a']);
  });
});

describe('KeyedSerialQueue', () => {
  it('serialises jobs of one key and runs different keys side by side', async () => {
    const queue = new KeyedSerialQueue();
    const log: string[] = [];
    const a1 = gatedJob(log, 'a1');
    const b1 = gatedJob(log, 'b1');
    const runs = [queue.run('a', a1.job), queue.run('a', async () => (log.push('a2'), 'a2')), queue.run('b', b1.job)];
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(log, ['start a1', 'start b1'], 'b runs while a1 holds a; a2 waits');
    b1.open();
    a1.open();
    assert.deepEqual(await Promise.all(runs), ['a1', 'a2', 'b1']);
    assert.ok(log.indexOf('a2') > log.indexOf('end a1'));
  });
});
