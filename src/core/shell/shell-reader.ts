import { programOf } from '../process/command-program';
import { interpreterOf } from '../process/interpreters';
import { parseBash, parseBudgetMs } from './bash-parser';
import { commandTooLong, MAX_COMMAND_CHARS } from './command-limits';
import type { CommandOrigin, ShellCommand, ShellScript } from './shell-model';
import type { SyntaxNode } from './syntax-node';
import { walkTree, type WalkResult } from './tree-walk';
import { decodeAnsiC } from './word-text';

/**
 * The one shell reader: a command line (or a script) → the simple commands it runs, on
 * tree-sitter-bash. Nothing is executed or expanded. Scripts that a command runs are read too and
 * follow it (`bash -c '…'`, `eval`, `sh <<EOF`, `echo … | sh`, `find -exec`, zsh glob qualifiers).
 * Bounded: a text over MAX_COMMAND_CHARS is not read; each parse has a budget of the parser's CPU
 * time, and all the parses of one line share one (half as much again as the line's own), at most
 * MAX_SCRIPTS nested scripts, MAX_DEPTH levels deep.
 */
const MAX_DEPTH = 8;
const MAX_SCRIPTS = 64;
const DECEPTIVE = /[\r\u2028\u2029\u0085\v\f]/g;
const QUOTED = new Set(['string', 'raw_string', 'ansi_c_string', 'translated_string', 'heredoc_body']);

interface ReadState {
  depth: number;
  /** The parser's CPU milliseconds the line has left (shared by its nested scripts). */
  cpu: { leftMs: number };
  scripts: { left: number };
}

/** Reads a command line. */
export function readShell(command: string): ShellScript {
  const tooLong = commandTooLong(command);
  if (tooLong) return { ...emptyScript(command), tooLong: { length: command.length, limit: MAX_COMMAND_CHARS, reason: tooLong } };
  const state: ReadState = { depth: 0, cpu: { leftMs: 1.5 * parseBudgetMs(command.length) }, scripts: { left: MAX_SCRIPTS } };
  return readText(command.replace(/\r\n/g, '\n'), state, {}, 'command');
}

function readText(input: string, state: ReadState, scope: { cd?: readonly string[] | null; vars?: Readonly<Record<string, string>> }, origin: CommandOrigin): ShellScript {
  const first = parseWithin(input, state);
  if ('failure' in first) return { ...emptyScript(input), parseError: first.failure };
  let text = input;
  let tree = first.tree;
  let deceptive: string | undefined;
  const breaks = unquotedBreaks(input, tree);
  if (breaks.length > 0) {
    // What the display shows as one line runs as several: read it the way the shell will.
    const at = breaks[0]!;
    if (input.slice(at + 1).trim() !== '') deceptive = `an unquoted ${describeBreak(input[at]!)} splits the line where the display may not`;
    const unquoted = new Set(breaks);
    text = input.replace(DECEPTIVE, (c, offset: number) => (unquoted.has(offset) ? '\n' : c));
    const second = parseWithin(text, state);
    if ('failure' in second) return { ...emptyScript(text), parseError: second.failure, ...(deceptive ? { deceptive } : {}) };
    tree = second.tree;
  }
  const walk = walkTree(tree, text, { cd: scope.cd, vars: scope.vars }, origin);
  addStdinText(walk);
  const script: ShellScript = {
    ...emptyScript(text),
    pipelines: walk.pipelines.map(() => ({ stages: [] })),
    functions: walk.functions.map((f) => ({ name: f.name, body: [] })),
    pieces: walk.pieces,
    substitution: walk.substitution,
    processSubstitution: walk.processSubstitution,
    subshell: walk.subshell,
    heredoc: walk.heredoc,
    multiline: walk.multiline,
  };
  if (deceptive) script.deceptive = deceptive;
  if (walk.risky) script.risky = walk.risky;
  if (walk.parseError) script.parseError = walk.parseError;
  const lost = unreadText(tree, text, walk.repaired);
  if (lost !== undefined) script.parseError ??= `part of it was not read (\`${lost}\`)`;
  placeCommands(walk, script, state);
  return script;
}

function parseWithin(text: string, state: ReadState): { tree: SyntaxNode } | { failure: string } {
  if (state.cpu.leftMs <= 0) return { failure: 'it could not be read in time' };
  const outcome = parseBash(text, Math.min(parseBudgetMs(text.length), state.cpu.leftMs));
  if ('tree' in outcome) state.cpu.leftMs -= outcome.cpuMs;
  return 'tree' in outcome ? outcome : { failure: outcome.failure === 'timeout' ? `it could not be read in time (${outcome.reason})` : `the shell reader is unavailable: ${outcome.reason}` };
}

/** Offsets of carriage returns and Unicode line breaks outside quotes (inside quotes they are only text). */
function unquotedBreaks(text: string, tree: SyntaxNode): number[] {
  const at: number[] = [];
  for (const m of text.matchAll(DECEPTIVE)) at.push(m.index);
  if (at.length === 0) return at;
  const quoted: Array<[number, number]> = [];
  const stack = [tree];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (QUOTED.has(n.type)) quoted.push([n.start, n.end]);
    else for (const c of n.children) stack.push(c);
  }
  quoted.sort((a, b) => a[0] - b[0]);
  let q = 0;
  return at.filter((offset) => {
    while (q < quoted.length && quoted[q]![1] <= offset) q++;
    return !(q < quoted.length && quoted[q]![0] < offset && offset < quoted[q]![1]);
  });
}

/** Text between the tree's tokens that is not blank, a line continuation or a repaired word: the grammar skipped it. */
function unreadText(tree: SyntaxNode, text: string, repaired: ReadonlyArray<[number, number]>): string | undefined {
  let at = 0;
  const stack = [tree];
  const check = (end: number): string | undefined => {
    const gap = text.slice(at, end);
    if (gap.trim() === '' || !/\S/.test(gap.replace(/\\\n/g, ''))) return undefined;
    if (repaired.some(([s, e]) => s <= at && end <= e)) return undefined;
    return gap.trim().slice(0, 24);
  };
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.children.length > 0 && n.type !== 'heredoc_body') {
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
      continue;
    }
    if (n.start > at) {
      const lost = check(n.start);
      if (lost !== undefined) return lost;
    }
    at = Math.max(at, n.end);
  }
  return at < text.length ? check(text.length) : undefined;
}

/** What a command reads on standard input when it is written out: its here-document or here-string, or what `echo`, `printf` or `cat <<EOF` pipe into it. */
function addStdinText(walk: WalkResult): void {
  for (const command of walk.commands) {
    const fed = [...command.redirects].reverse().find((r) => r.body !== undefined && r.op.startsWith('<<'));
    if (fed) {
      command.stdinText = fed.body!;
      continue;
    }
    if (!command.pipe || command.pipe.stage === 0) continue;
    const before = walk.pipelines[command.pipe.id]?.stages[command.pipe.stage - 1];
    if (before?.length !== 1) continue;
    const output = literalOutput(walk.commands[before[0]!]!);
    if (output !== undefined) command.stdinText = output;
  }
}

function literalOutput(command: ShellCommand): string | undefined {
  const { name, args } = programOf(command.words);
  if (args.some((a) => /[$`]/.test(a))) return undefined;
  if (name === 'echo') {
    let i = 0;
    let escapes = false;
    while (i < args.length && /^-[neE]+$/.test(args[i]!)) escapes ||= args[i++]!.includes('e');
    const text = args.slice(i).join(' ');
    return escapes ? decodeAnsiC(text) : text;
  }
  if (name === 'printf' && args.length > 0) {
    let n = 1;
    return decodeAnsiC(args[0]!.replace(/%[sb]/g, () => args[n++] ?? '')) + (n < args.length ? ` ${args.slice(n).join(' ')}` : '');
  }
  if (name === 'cat' && args.every((a) => a === '-') && command.stdinText !== undefined) return command.stdinText;
  return undefined;
}

/** The walk's commands in order, each followed by the scripts it runs (read here) and its `find -exec` commands. */
function placeCommands(walk: WalkResult, script: ShellScript, state: ReadState): void {
  const final = script.commands;
  const moved: number[] = [];
  const qualifiers = new Map<number, string[]>();
  for (const q of walk.qualifierScripts) qualifiers.set(q.command, [...(qualifiers.get(q.command) ?? []), q.text]);

  const place = (command: ShellCommand, scriptsOf: string[]): void => {
    const at = final.push({ ...command, depth: state.depth }) - 1;
    for (const exec of execCommands(command, at)) place({ ...exec, depth: state.depth }, []);
    for (const text of [...scriptsOf, ...scriptsRun(command)]) {
      if (state.depth + 1 > MAX_DEPTH || state.scripts.left <= 0) {
        script.parseError ??= state.depth + 1 > MAX_DEPTH ? 'scripts nested too deep' : 'too many nested scripts';
        continue;
      }
      state.scripts.left--;
      const inner = readText(text, { ...state, depth: state.depth + 1 }, { ...(command.cd !== undefined ? { cd: command.cd } : {}), ...(command.vars ? { vars: command.vars } : {}) }, 'script');
      merge(script, inner, at);
    }
  };
  walk.commands.forEach((command, i) => {
    moved[i] = final.length;
    place(command.parent !== undefined ? { ...command, parent: moved[command.parent]! } : command, qualifiers.get(i) ?? []);
  });
  // The walk's own pipelines and functions (the first ones; nested scripts' come after) follow the commands to their places.
  walk.pipelines.forEach((p, k) => (script.pipelines[k] = { stages: p.stages.map((s) => s.map((i) => moved[i]!)) }));
  walk.functions.forEach((f, k) => (script.functions[k] = { name: f.name, body: f.body.map((i) => moved[i]!) }));
}

/** Adds a nested script's commands (after `parentIndex`), its pipelines and functions, and its flags. */
function merge(into: ShellScript, inner: ShellScript, parentIndex: number): void {
  const offset = into.commands.length;
  const pipeBase = into.pipelines.length;
  for (const c of inner.commands) {
    const copy: ShellCommand = { ...c, parent: c.parent !== undefined ? c.parent + offset : parentIndex };
    if (c.pipe) copy.pipe = { id: c.pipe.id + pipeBase, stage: c.pipe.stage };
    into.commands.push(copy);
  }
  into.pipelines.push(...inner.pipelines.map((p) => ({ stages: p.stages.map((s) => s.map((i) => i + offset)) })));
  into.functions.push(...inner.functions.map((f) => ({ name: f.name, body: f.body.map((i) => i + offset) })));
  into.substitution ||= inner.substitution;
  into.processSubstitution ||= inner.processSubstitution;
  into.subshell ||= inner.subshell;
  into.heredoc ||= inner.heredoc;
  into.multiline ||= inner.multiline;
  into.deceptive ??= inner.deceptive;
  into.risky ??= inner.risky;
  into.parseError ??= inner.parseError;
}

/** The scripts a command runs as shell code: `bash -c '…'`, `sh` reading a here-document or an echo, `eval …`, `trap '…'`, `watch 'cmd args'`. */
function scriptsRun(command: ShellCommand): string[] {
  const interpreter = interpreterOf(command.words);
  if (interpreter?.family === 'shell') {
    const { source, args } = interpreter;
    if (source.kind === 'code' && args[source.index] !== undefined) return [args[source.index]!];
    if (source.kind === 'stdin' && command.stdinText !== undefined) return [command.stdinText];
    return [];
  }
  const { name, args } = programOf(command.words);
  if (name === 'eval' && args.length > 0) return [args.join(' ')];
  if (name === 'trap' && args[0] !== undefined && !args[0].startsWith('-')) return [args[0]];
  // A program name with spaces is a command line handed to a shell (`watch 'make test'`).
  if (/\s/.test(name) && command.words.indexOf(name) > 0) return [[name, ...args].join(' ')];
  return [];
}

/** `find … -exec rm {} \;`: the command each match runs (without `{}`). */
function execCommands(command: ShellCommand, at: number): ShellCommand[] {
  const { name, args } = programOf(command.words);
  if (name !== 'find') return [];
  const out: ShellCommand[] = [];
  for (let j = 0; j < args.length; j++) {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(args[j]!)) continue;
    const close = args.findIndex((a, n) => n > j && (a === ';' || a === '+'));
    const inner = args.slice(j + 1, close === -1 ? args.length : close).filter((a) => a !== '{}');
    if (inner.length === 0) continue;
    const text = inner.join(' ');
    out.push({ words: inner, redirects: [], text, written: text, origin: 'exec', depth: command.depth, parent: at, background: false, ...(command.cd !== undefined ? { cd: command.cd } : {}) });
    if (close !== -1) j = close;
  }
  return out;
}

function emptyScript(text: string): ShellScript {
  return { text, commands: [], pipelines: [], functions: [], pieces: [{ start: 0, end: text.length }], substitution: false, processSubstitution: false, subshell: false, heredoc: false, multiline: false };
}

function describeBreak(c: string): string {
  return c === '\r' ? 'carriage return' : `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} line break`;
}

/** The top-level pieces of a command line separated by `&&`, `||`, `;`, `&` and newlines, as [start, end) offsets (pipes stay inside a piece). */
export function splitTopLevel(text: string): Array<{ start: number; end: number }> {
  const pieces = readShell(text).pieces;
  if (!text.includes('\r\n')) return pieces;
  // The reader made `\r\n` one character: map its offsets back onto the text as given.
  const original: number[] = [];
  for (let i = 0; i < text.length; i++) if (!(text[i] === '\r' && text[i + 1] === '\n')) original.push(i);
  original.push(text.length);
  return pieces.map(({ start, end }) => ({ start: original[start]!, end: original[end]! }));
}

/** One simple command as the danger gate and the artifact index see it. */
export interface SimpleCommand {
  words: string[];
  redirects: Array<{ op: string; target: string }>;
}

/** The simple commands of a line (nested ones included), words with quotes removed. */
export function parseShellLine(text: string): { commands: SimpleCommand[] } {
  return { commands: readShell(text).commands.map((c) => ({ words: c.words, redirects: c.redirects.map((r) => ({ op: r.op, target: r.target })) })) };
}
