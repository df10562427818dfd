import * as assert from 'node:assert/strict';
import { createUiRelay } from '../../../../src/core/agent/ui-relay';
import type { UICallback } from '../../../../src/core/ui';

describe('UI relay', () => {
  it('forwards to the current turn, keeps events flowing to the last front end, and withholds blocking requests between turns', () => {
    const notices: string[] = [];
    const front: UICallback = {
      onTextDelta() {},
      onToolStart() {},
      onToolEnd() {},
      onNotice: (t) => notices.push(t),
      askUser: async () => undefined,
    };
    const relay = createUiRelay();
    relay.ui.onNotice?.('before any turn', 'info'); // nobody to tell yet: held for the first front end
    assert.equal(relay.ui.askUser, undefined);
    assert.deepEqual(notices, []);
    relay.setTarget(front);
    assert.deepEqual(notices, ['before any turn'], 'shown once a front end is there');
    relay.ui.onNotice?.('during', 'info');
    assert.equal(typeof relay.ui.askUser, 'function');
    relay.setTarget(undefined);
    relay.ui.onNotice?.('a background subagent finished', 'info');
    assert.equal(relay.ui.askUser, undefined, 'no one can answer between turns');
    assert.deepEqual(notices, ['before any turn', 'during', 'a background subagent finished']);
    relay.setTarget(front);
    assert.equal(notices.length, 3, 'held notices are shown once');
    relay.ui.onTextDelta('ignored safely');
  });
});
