import * as assert from 'node:assert/strict';
import { parseBash, parseBudgetMs } from '../../../../src/core/shell/bash-parser';

/**
 * The shell parser's budget is the parser's CPU time, not time on the clock: a busy machine makes a
 * parse wait, and waiting is not what makes tree-sitter crawl. Judged by the clock, an ordinary
 * command on a loaded machine overran its 100 ms and was refused as unreadable.
 */
describe('the shell parser', function () {
  this.timeout(120_000);
  let n = 0;
  /** A text new to the parser's cache. */
  const fresh = (text: string) => `${text} # ${++n}`;

  it('reads a short command within a budget of 1 ms of CPU time, shorter than a round trip to the parser process takes on a busy machine', () => {
    parseBash(fresh('ls')); // the parser process is started (that is not the parse's time)
    for (let i = 0; i < 20; i++) {
      const outcome = parseBash(fresh('git status --short && npm test 2>&1 | tail -5'), 1);
      assert.ok('tree' in outcome, JSON.stringify(outcome));
      assert.ok(outcome.cpuMs <= 1, `${outcome.cpuMs} ms`);
    }
  });

  it('stops a parse that crawls once it has used its budget, and reads the next line with a new parser process', () => {
    const crawling = '=`>'.repeat(30_000);
    const outcome = parseBash(crawling);
    assert.ok('failure' in outcome, 'the crawling parse was not stopped');
    assert.equal(outcome.failure, 'timeout');
    assert.equal(outcome.reason, `it could not be read within ${Math.round(parseBudgetMs(crawling.length))} ms of CPU time`);
    const next = parseBash(fresh('ls -la'));
    assert.ok('tree' in next, JSON.stringify(next));
    assert.equal(next.tree.type, 'program');
  });

  it('says what a parse cost, and a tree read again comes from the cache at no cost', () => {
    const text = fresh('for f in src/*.ts; do wc -l "$f"; done');
    const first = parseBash(text);
    assert.ok('tree' in first);
    assert.ok(first.cpuMs >= 0 && first.cpuMs < parseBudgetMs(text.length));
    const again = parseBash(text);
    assert.ok('tree' in again);
    assert.equal(again.cpuMs, 0);
    assert.equal(again.tree, first.tree);
  });
});
