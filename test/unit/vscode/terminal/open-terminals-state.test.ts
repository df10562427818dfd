import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpenTerminalsState } from '../../../../src/vscode/terminal/open-terminals-state';

/** Which agent terminals a reload brings back: what one window wrote, the next one reads. */
describe('the open agent terminals, remembered for a reload', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'opendev-tabs-'));
    file = join(dir, 'storage', 'agent-terminals.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a tab closed with /exit is forgotten at once: the next window reads no tab', () => {
    const before = new OpenTerminalsState(file);
    before.write([{ name: 'OpenDev Agent', sessionId: 's1' }]);
    assert.deepEqual(new OpenTerminalsState(file).read(), [{ name: 'OpenDev Agent', sessionId: 's1' }]);
    before.write([]); // the reload may follow at once: nothing is left to a later flush
    assert.deepEqual(new OpenTerminalsState(file).read(), []);
  });

  it('once the window shuts down, the tabs it closes are kept to come back', () => {
    const state = new OpenTerminalsState(file);
    state.write([{ name: 'OpenDev Agent', sessionId: 's1' }, { name: 'OpenDev Agent 2', sessionId: 's2' }]);
    state.freeze();
    state.write([{ name: 'OpenDev Agent 2', sessionId: 's2' }]);
    state.write([]);
    assert.deepEqual(new OpenTerminalsState(file).read().map((t) => t.sessionId), ['s1', 's2']);
  });

  it('a missing, broken or foreign file brings back nothing, and is replaced by the next write', () => {
    assert.deepEqual(new OpenTerminalsState(file).read(), []);
    for (const text of ['{not json', JSON.stringify({ tabs: 1 }), JSON.stringify([{ name: '', sessionId: 'x' }])]) {
      writeFileSync(join(dir, 'broken.json'), text);
      assert.deepEqual(new OpenTerminalsState(join(dir, 'broken.json')).read(), [], text);
    }
    const state = new OpenTerminalsState(join(dir, 'broken.json'));
    state.write([{ name: 'OpenDev Agent', sessionId: 's3' }]);
    assert.deepEqual(new OpenTerminalsState(join(dir, 'broken.json')).read(), [{ name: 'OpenDev Agent', sessionId: 's3' }]);
  });
});
