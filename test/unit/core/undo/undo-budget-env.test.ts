import * as assert from 'node:assert/strict';
import { undoBudgetFromEnv } from '../../../../src/core/undo/undo-budget-env';

describe('OPENDEV_UNDO_BUDGET_MS', () => {
  it('gives the snapshot budget in whole milliseconds; anything else leaves the default', () => {
    assert.equal(undoBudgetFromEnv({ OPENDEV_UNDO_BUDGET_MS: '60000' }), 60_000);
    assert.equal(undoBudgetFromEnv({ OPENDEV_UNDO_BUDGET_MS: ' 0 ' }), 0);
    for (const value of [undefined, '', '2s', '-5', '1.5', 'lots']) assert.equal(undoBudgetFromEnv({ OPENDEV_UNDO_BUDGET_MS: value }), undefined, String(value));
  });
});
