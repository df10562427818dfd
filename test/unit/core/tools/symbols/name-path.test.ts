import * as assert from 'node:assert/strict';
import type { DocumentSymbolNode } from '../../../../../src/core/symbol-port';
import { enclosingSymbol, matchNamePath, matchSymbols, parseNamePattern, type NamePattern } from '../../../../../src/core/tools/symbols/name-path';

function pattern(text: string): NamePattern {
  const p = parseNamePattern(text);
  if ('error' in p) throw new Error(p.error);
  return p;
}

/** A symbol spanning lines [from, to] with children. */
function sym(name: string, from: number, to: number, children: DocumentSymbolNode[] = []): DocumentSymbolNode {
  const range = { start: { line: from, character: 0 }, end: { line: to, character: 1 } };
  return { name, kind: 'class', range, selectionRange: range, children };
}

const TREE = [
  sym('Shape', 0, 10, [sym('area', 2, 4), sym('describe', 6, 9)]),
  sym('Rectangle', 12, 30, [sym('area', 14, 16), sym('perimeter', 18, 20)]),
  sym('MyService', 32, 40, [sym('start', 33, 35)]),
  sym('MyServiceFactory', 42, 50),
  sym('totalArea', 52, 55),
];

describe('symbol name paths', () => {
  it('matches Class.method exactly, a bare method as a suffix, and nothing that only resembles it', () => {
    assert.equal(matchNamePath(pattern('Rectangle.area'), ['Rectangle', 'area']), 'exact');
    assert.equal(matchNamePath(pattern('area'), ['Rectangle', 'area']), 'suffix');
    assert.equal(matchNamePath(pattern('area'), ['area']), 'exact');
    assert.equal(matchNamePath(pattern('Rect.area'), ['Rectangle', 'area']), undefined);
    assert.equal(matchNamePath(pattern('Rectangle.area'), ['area']), undefined, 'a longer pattern never matches a shorter path');
    assert.equal(matchNamePath(pattern('Area'), ['Rectangle', 'area']), undefined, 'names are case-sensitive');
  });

  it('accepts / and :: as separators, and a nested path as a suffix of a deeper one', () => {
    assert.equal(matchNamePath(pattern('Rectangle/area'), ['Rectangle', 'area']), 'exact');
    assert.equal(matchNamePath(pattern('Rectangle::area'), ['Rectangle', 'area']), 'exact');
    assert.equal(matchNamePath(pattern('Rectangle.area'), ['shapes', 'Rectangle', 'area']), 'suffix');
  });

  it('expands * and ? within one segment only', () => {
    assert.deepEqual(
      matchSymbols(pattern('My*'), TREE).map((m) => m.namePath.join('.')),
      ['MyService', 'MyServiceFactory'],
    );
    assert.deepEqual(
      matchSymbols(pattern('*.area'), TREE).map((m) => m.namePath.join('.')),
      ['Shape.area', 'Rectangle.area'],
    );
    assert.equal(matchNamePath(pattern('are?'), ['area']), 'exact');
    assert.equal(matchNamePath(pattern('My*'), ['MyService', 'start']), undefined, 'the star does not cross a dot');
  });

  it('finds every match of a bare name across the tree, parents before children', () => {
    assert.deepEqual(
      matchSymbols(pattern('area'), TREE).map((m) => `${m.namePath.join('.')}:${m.match}`),
      ['Shape.area:suffix', 'Rectangle.area:suffix'],
    );
  });

  it('takes the longest plain run as the text the providers search for', () => {
    assert.equal(pattern('My*Service').literal, 'Service');
    assert.equal(pattern('Shape.*').literal, 'Shape');
    assert.equal(pattern('  Rectangle.area ').text, 'Rectangle.area');
  });

  it('refuses empty names, spaces and patterns of wildcards alone', () => {
    for (const bad of ['', '...', 'Shape area', '*', '*.*']) {
      const p = parseNamePattern(bad);
      assert.ok('error' in p, `"${bad}" should be refused`);
    }
  });

  it('names the innermost symbol around a position, or none at the top level', () => {
    assert.deepEqual(enclosingSymbol(TREE, 15, 4)?.namePath, ['Rectangle', 'area']);
    assert.deepEqual(enclosingSymbol(TREE, 17, 0)?.namePath, ['Rectangle']);
    assert.equal(enclosingSymbol(TREE, 11, 0), undefined);
  });
});
