import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { peerFixturePath } from '../../../helpers/peer-data';
import type { Message } from '../../../../src/core/messages';
import { MISSING_RESULT_TEXT, isValidHistory, pruneLastExchange, repairHistory, repairInPlace } from '../../../../src/core/context/validated-messages';
import { syntheticHistory } from './history-fixture';

const call = (id: string, name = 'read_file') => ({ id, name, arguments: '{}' });
const asst = (...ids: string[]): Message => ({ role: 'assistant', content: '', toolCalls: ids.map((id) => call(id)) });
const result = (id: string, content = `out ${id}`): Message => ({ role: 'tool', toolCallId: id, name: 'read_file', content, isError: false });
const user = (content: string): Message => ({ role: 'user', content });

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe('repairHistory', () => {
  it('leaves a valid list as it is (no repairs) and never mutates the input', () => {
    const input = deepFreeze(syntheticHistory());
    const { messages, repairs } = repairHistory(input);
    assert.deepEqual(repairs, []);
    assert.deepEqual(messages, input);
    assert.notEqual(messages, input);
    assert.ok(isValidHistory(input));
  });

  it('gives a call without a result a synthetic error result before the next turn', () => {
    const input = deepFreeze([user('go'), asst('a', 'b'), result('a'), user('next'), asst('c')]);
    const { messages, repairs } = repairHistory(input);
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'tool', 'tool', 'user', 'assistant', 'tool']);
    const synthetic = messages[3];
    assert.deepEqual(synthetic, { role: 'tool', toolCallId: 'b', name: 'read_file', content: MISSING_RESULT_TEXT, isError: true });
    assert.equal((messages[6] as Extract<Message, { role: 'tool' }>).toolCallId, 'c');
    assert.equal(repairs.length, 2);
    assert.match(repairs[0], /no result was recorded for read_file \(call b\)/);
  });

  it('drops orphan results and second results of an answered call', () => {
    const input = deepFreeze([user('go'), result('ghost'), asst('a'), result('a'), result('a', 'again'), user('next')]);
    const { messages, repairs } = repairHistory(input);
    assert.deepEqual(messages, [user('go'), asst('a'), result('a'), user('next')]);
    assert.equal(repairs.length, 2);
    assert.match(repairs[0], /orphan result .*ghost/);
    assert.match(repairs[1], /second result/);
  });

  it('moves results right after their call when a turn is interleaved', () => {
    const input = deepFreeze([user('go'), asst('a', 'b'), result('a'), user('follow-up typed meanwhile'), result('b')]);
    const { messages, repairs } = repairHistory(input);
    assert.deepEqual(messages, [user('go'), asst('a', 'b'), result('a'), result('b'), user('follow-up typed meanwhile')]);
    assert.equal(repairs.length, 1);
    assert.match(repairs[0], /moved the result of read_file \(call b\)/);
  });

  it('puts results in call order without counting that as a repair', () => {
    const { messages, repairs } = repairHistory([asst('a', 'b'), result('b'), result('a')]);
    assert.deepEqual(messages, [asst('a', 'b'), result('a'), result('b')]);
    assert.deepEqual(repairs, []);
  });

  it('gives a repeated call id its own synthetic result', () => {
    const { messages, repairs } = repairHistory([asst('a'), result('a'), asst('a')]);
    assert.deepEqual(messages.map((m) => m.role), ['assistant', 'tool', 'assistant', 'tool']);
    assert.equal((messages[3] as Extract<Message, { role: 'tool' }>).content, MISSING_RESULT_TEXT);
    assert.equal(repairs.length, 1);
  });

  it('is idempotent', () => {
    const broken = [user('go'), result('x'), asst('a', 'b'), user('u'), result('a'), asst('c')];
    const once = repairHistory(broken);
    const twice = repairHistory(once.messages);
    assert.deepEqual(twice.repairs, []);
    assert.deepEqual(twice.messages, once.messages);
  });

  it('repairInPlace rewrites the array it is given and reports the repairs', () => {
    const history = [user('go'), asst('a')];
    const repairs = repairInPlace(history);
    assert.equal(repairs.length, 1);
    assert.equal(history.length, 3);
    assert.ok(isValidHistory(history));
    assert.deepEqual(repairInPlace(history), []);
  });
});

/** Continue's pruneLastMessage cases (test/fixtures/peer/compaction/continue_compaction_cases.json). */
describe('pruneLastExchange (Continue pruneLastMessage cases)', () => {
  interface WireMessage { role: string; content: string; tool_calls?: { id: string }[]; tool_call_id?: string }
  interface Case { test: string; input_messages: WireMessage[]; expected_messages: WireMessage[] | null; expected_roles?: string[] }
  const file = peerFixturePath('compaction', 'continue_compaction_cases.json');
  // The peer cases are vendored (test/fixtures/peer/); without them the suite fails.
  const cases: Case[] = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { pruneLastMessage: { cases: Case[] } }).pruneLastMessage.cases : [];

  const toOurs = (m: WireMessage): Message => {
    if (m.role === 'assistant') return { role: 'assistant', content: m.content, toolCalls: (m.tool_calls ?? []).map((c) => ({ id: c.id, name: '', arguments: '' })) };
    if (m.role === 'tool') return { role: 'tool', toolCallId: m.tool_call_id ?? '', name: '', content: m.content, isError: false };
    return { role: m.role as 'user' | 'system', content: m.content };
  };

  // Not applied: "should handle complex conversation flow" — its expected output keeps an assistant
  // tool call and drops its tool result (an artefact of Continue's history conversion). Our
  // validated message list forbids a call without its result, so we keep the result there.
  const NOT_APPLICABLE = new Set(['pruneLastMessage > should handle complex conversation flow']);

  it('finds the peer cases', () => assert.ok(cases.length > 0, `missing ${file}`));
  for (const c of cases) {
    if (NOT_APPLICABLE.has(c.test)) continue;
    it(c.test, () => {
      const out = pruneLastExchange(c.input_messages.map(toOurs));
      if (c.expected_messages) assert.deepEqual(out, c.expected_messages.map(toOurs));
      else assert.deepEqual(out.map((m) => m.role), c.expected_roles);
      assert.ok(isValidHistory(out));
    });
  }

  it('keeps the tool result in the complex flow (our deviation, see above)', () => {
    const c = cases.find((x) => NOT_APPLICABLE.has(x.test));
    assert.ok(c, 'the complex-flow case is in the corpus');
    const out = pruneLastExchange(c.input_messages.map(toOurs));
    assert.deepEqual(out.map((m) => m.role), ['system', 'user', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
    assert.ok(isValidHistory(out));
  });
});
