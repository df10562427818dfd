import type { Message } from '../../../../src/core/messages';

/** Realistic tool outputs: file reads, searches, command runs. */
function fileRead(path: string, lines: number): string {
  const body: string[] = [];
  for (let i = 1; i <= lines; i++) {
    body.push(`${String(i).padStart(5)}\t${i % 7 === 0 ? '' : `  const value${i} = computeSomething(input${i}, options.${path.length % 5 ? 'strict' : 'loose'}); // ${path}`}`);
  }
  return body.join('\n');
}

function searchOutput(pattern: string, matches: number): string {
  const out = [`Found ${matches} matches for "${pattern}"`];
  for (let i = 0; i < matches; i++) out.push(`src/core/module${i % 9}/file${i}.ts:${10 + i * 3}:  export function ${pattern}${i}(args: Options): Result {`);
  return out.join('\n');
}

function commandRun(command: string, lines: number): string {
  const out = [`$ ${command}`];
  for (let i = 0; i < lines; i++) out.push(i % 11 === 10 ? `  ✗ test case ${i} failed: expected 3 to equal 4` : `  ✓ test case ${i} passes (${i * 3} ms)`);
  out.push(`${lines} tests, ${Math.floor(lines / 11)} failing`);
  return out.join('\n');
}

/**
 * 40 messages: a request, then 19 rounds of one tool call and its result (reads, searches, test
 * runs in turn), then a follow-up from the user.
 */
export function syntheticHistory(): Message[] {
  const history: Message[] = [{ role: 'user', content: 'Fix the failing tests in src/core and explain what was wrong.' }];
  for (let round = 0; round < 19; round++) {
    const id = `call_${round}`;
    let name: string;
    let args: string;
    let content: string;
    if (round % 3 === 0) {
      name = 'read_file';
      args = JSON.stringify({ path: `src/core/file${round}.ts` });
      content = fileRead(`src/core/file${round}.ts`, 60 + round * 4);
    } else if (round % 3 === 1) {
      name = 'search';
      args = JSON.stringify({ pattern: `handler${round}`, path: 'src' });
      content = searchOutput(`handler${round}`, 30 + round);
    } else {
      name = 'run_command';
      args = JSON.stringify({ command: 'npm test -- --grep core' });
      content = commandRun('npm test -- --grep core', 50 + round * 2);
    }
    history.push({ role: 'assistant', content: round % 4 === 0 ? 'Let me look at this.' : '', toolCalls: [{ id, name, arguments: args }] });
    history.push({ role: 'tool', toolCallId: id, name, content, isError: false });
  }
  history.push({ role: 'user', content: 'Also check the CLI while you are at it.' });
  return history;
}

export function toolResults(history: readonly Message[]): Extract<Message, { role: 'tool' }>[] {
  return history.filter((m): m is Extract<Message, { role: 'tool' }> => m.role === 'tool');
}
