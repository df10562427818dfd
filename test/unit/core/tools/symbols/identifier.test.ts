import * as assert from 'node:assert/strict';
import { identifierProblem } from '../../../../../src/core/tools/symbols/identifier';

describe('rename_symbol identifier check', () => {
  it('accepts identifiers, Unicode letters and $ included', () => {
    for (const name of ['sumOfAreas', '_private', '$store', 'größe', 'x1']) assert.equal(identifierProblem(name, 'a.ts'), undefined, name);
  });

  it('refuses empty names, spaces, punctuation and a leading digit, saying why', () => {
    assert.match(identifierProblem('', 'a.ts')!, /empty/);
    assert.match(identifierProblem('sum areas', 'a.ts')!, /whitespace/);
    assert.match(identifierProblem('sum-areas', 'a.ts')!, /not an identifier/);
    assert.match(identifierProblem('Shape.area', 'a.ts')!, /not an identifier/);
    assert.match(identifierProblem('1st', 'a.ts')!, /starts with a digit/);
  });

  it("refuses the file's language's reserved words, not other languages'", () => {
    assert.match(identifierProblem('class', 'shapes.ts')!, /reserved word/);
    assert.match(identifierProblem('lambda', 'model.py')!, /reserved word/);
    assert.equal(identifierProblem('lambda', 'shapes.ts'), undefined);
    assert.equal(identifierProblem('function', 'model.py'), undefined);
  });
});
