import * as assert from 'node:assert/strict';
import { FirstAnswerGate } from '../../../../src/core/agent/first-answer-gate';

describe('FirstAnswerGate', () => {
  it('holds work until the first answer, then runs it once, in order; later work runs at once', () => {
    const gate = new FirstAnswerGate();
    const ran: string[] = [];
    gate.run(() => ran.push('sandbox'));
    gate.run(() => ran.push('undo warm-up'));
    assert.equal(ran.length, 0, 'nothing runs before the first answer');
    gate.open();
    gate.open();
    assert.deepEqual(ran, ['sandbox', 'undo warm-up']);
    gate.run(() => ran.push('later'));
    assert.deepEqual(ran, ['sandbox', 'undo warm-up', 'later']);
  });

  it('runs the held work by itself when no model call comes (an editor or a REPL waiting for the user)', async () => {
    const gate = new FirstAnswerGate(5);
    await new Promise<void>((resolve) => gate.run(resolve));
  });
});
