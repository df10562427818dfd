import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { FakeProvider } from '../../../fixtures/fake-provider';
import { collect, finalText, providerFor, request, WIRES } from './helpers';

for (const wire of WIRES) {
  describe(`one turn's signal over many ${wire} calls`, () => {
    const fake = new FakeProvider();
    before(() => fake.start());
    after(() => fake.stop());

    it('keeps no abort listener per call on the signal it is given (no leak, no MaxListeners warning)', async () => {
      const warnings: Error[] = [];
      const onWarning = (w: Error) => warnings.push(w);
      process.on('warning', onWarning);
      try {
        const turn = new AbortController();
        const provider = providerFor(wire, fake);
        for (let i = 0; i < 15; i++) {
          fake.enqueue({ text: `answer ${i}` });
          assert.equal(finalText(await collect(provider.stream(request(), turn.signal))), `answer ${i}`);
        }
        assert.equal(getEventListeners(turn.signal, 'abort').length, 0);
        await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
        assert.deepEqual(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message), []);
      } finally {
        process.off('warning', onWarning);
      }
    });
  });
}
