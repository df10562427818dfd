// Mocha's spec output for people, plus a small JSON summary for test/run.mjs to add up.
const { writeFileSync } = require('node:fs');
const Mocha = require('mocha');

class SpecWithSummary extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const file = options.reporterOption?.summary ?? options.reporterOptions?.summary;
    const failures = [];
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test, err) => failures.push({ title: test.fullTitle(), error: String(err?.message ?? err) }));
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      if (file) writeFileSync(file, JSON.stringify({ ...runner.stats, failureList: failures }));
    });
  }
}
module.exports = SpecWithSummary;
