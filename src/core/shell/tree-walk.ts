import { programOf } from '../process/command-program';
import { riskyExpansion, RISKY_HERE_STRING } from './risky-expansions';
import type { CommandOrigin, ShellCommand, ShellFunction, ShellPipeline, ShellRedirect } from './shell-model';
import type { SyntaxNode } from './syntax-node';
import { assignmentText, clip, commandRange, containsType, extglob, hasStatementsOnSeveralLines, isCommandNode, lastStatement, readRedirects, redirectEnd, REDIRECTS, STATEMENTS, testWords, topLevelPieces, withoutSubstitutions } from './syntax-parts';
import { substituteKnownVars } from './shell-text';
import { wordText } from './word-text';

/**
 * Walks a tree-sitter-bash tree into simple commands, in the order they are written (a command's
 * substitutions right after it). Every `command` node of the tree becomes a command, wherever it
 * sits (error nodes included), so nothing that runs is skipped. No recursion: the stack is explicit.
 */

/** What a walk leaves for the reader: the commands and the flags it saw on the way. */
export interface WalkResult {
  commands: ShellCommand[];
  pipelines: ShellPipeline[];
  functions: ShellFunction[];
  pieces: Array<{ start: number; end: number }>;
  /** Source ranges the grammar left out of the tree that the walk put back as words. */
  repaired: Array<[number, number]>;
  /** Bodies of zsh glob qualifiers (`*(e:cmd:)`): scripts the command at that index runs. */
  qualifierScripts: Array<{ command: number; text: string }>;
  substitution: boolean;
  processSubstitution: boolean;
  subshell: boolean;
  heredoc: boolean;
  multiline: boolean;
  risky?: string;
  parseError?: string;
}

/** What every command inherits from where it stands. */
interface Scope {
  cd: readonly string[] | null | undefined;
  vars: Readonly<Record<string, string>> | undefined;
}

interface Context {
  origin: CommandOrigin;
  parent?: number;
  parentWord?: number;
  pipe?: { id: number; stage: number };
  background: boolean;
  inFunction?: string;
  /** Shared by the commands of one scope, in order; a subshell or substitution gets a copy. */
  scope: Scope;
  /** Inside the words of this command: a substitution found here belongs to it. */
  wordsOf?: { command: number; word?: number };
  /** Inside a `${…}` (only the outermost one is checked for hidden forms). */
  inExpansion?: boolean;
  /** Groups, substitutions and bodies around it. */
  nesting: number;
}

/** Deeper than this nothing is read (and the line is unreadable): each level repeats the text of the ones inside it. */
const MAX_NESTING = 32;
const NESTS = new Set(['subshell', 'compound_statement', 'command_substitution', 'process_substitution', 'do_group', 'if_statement', 'case_item', 'function_definition']);
const MAX_VARS = 64;
const UNFINISHED = new Set(['fi', 'done', 'esac', 'then', 'do']);
/** What can be a word of a command the grammar could not place (inside an error). */
const LOOSE_WORDS = new Set(['word', 'string', 'raw_string', 'ansi_c_string', 'translated_string', 'concatenation', 'number', 'simple_expansion', 'expansion', 'command_substitution', 'process_substitution', 'arithmetic_expansion']);
const KEYWORDS = new Set(['do', 'then', 'else', 'elif', 'if', 'while', 'until', 'for', 'in', 'case', 'esac', 'fi', 'done', '{', '}', '!', 'function', 'select', 'time']);
const MAX_CDS = 16;

export function walkTree(root: SyntaxNode, source: string, initial: Scope, origin: CommandOrigin): WalkResult {
  const out: WalkResult = { commands: [], pipelines: [], functions: [], pieces: [], repaired: [], qualifierScripts: [], substitution: false, processSubstitution: false, subshell: false, heredoc: false, multiline: false };
  const fail = (reason: string) => (out.parseError ??= reason);
  const flagRisky = (reason: string) => (out.risky ??= reason);
  /** Nodes already accounted for by the command they belong to (an extglob's parts, a here-document's pipeline). */
  const consumed = new Set<SyntaxNode>();
  /** Redirections the grammar put on a list or pipeline, for its last command. */
  const lateRedirects = new Map<SyntaxNode, SyntaxNode[]>();
  const stack: Array<{ node: SyntaxNode; ctx: Context }> = [];
  const pushChildren = (node: SyntaxNode, ctx: Context) => {
    const kids = node.children;
    for (let i = kids.length - 1; i >= 0; i--) {
      const child = kids[i]!;
      if (consumed.has(child)) continue;
      const next = kids[i + 1];
      let childCtx = ctx;
      if (next && !next.named && next.type === '&' && STATEMENTS.has(child.type)) childCtx = { ...childCtx, background: true };
      stack.push({ node: child, ctx: childCtx });
    }
  };

  out.pieces = topLevelPieces(root);
  stack.push({ node: root, ctx: { origin, background: false, nesting: 0, scope: { cd: initial.cd, vars: initial.vars } } });
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const node = entry.node;
    let ctx = entry.ctx;
    if (NESTS.has(node.type)) {
      if (ctx.nesting >= MAX_NESTING) {
        fail('nesting too deep');
        continue;
      }
      ctx = { ...ctx, nesting: ctx.nesting + 1 };
    }
    if (node.start === node.end && node !== root && node.type !== 'heredoc_content' && node.type !== 'heredoc_body') {
      // An unfinished `if`/`for`/`case` at the end: the shell runs none of that line, and what is in it is read anyway.
      if (!node.named && UNFINISHED.has(node.type)) continue;
      fail(node.named ? `something is missing before \`${clip(source.slice(node.start, node.start + 12))}\`` : `a missing \`${node.type}\``);
      continue;
    }
    if (!out.multiline && hasStatementsOnSeveralLines(node, source)) out.multiline = true;
    switch (node.type) {
      case 'command':
      case 'declaration_command':
      case 'unset_command':
      case 'variable_assignments':
      case 'test_command':
        emit(node, ctx, lateRedirects.get(node) ?? []);
        continue;
      case 'variable_assignment':
        if (ctx.wordsOf) break; // a word of a command, not a statement
        emit(node, ctx, lateRedirects.get(node) ?? []);
        continue;
      case 'redirected_statement': {
        const body = node.children.find((c) => c.named && !REDIRECTS.has(c.type) && c.type !== 'comment');
        const redirects = node.children.filter((c) => REDIRECTS.has(c.type));
        const heredocPipe = redirects.flatMap((r) => (r.type === 'heredoc_redirect' ? r.children : [])).find((c) => c.type === 'pipeline');
        let bodyCtx = ctx;
        if (heredocPipe) {
          // `cat <<EOF | sh`: the grammar nests the rest of the pipeline in the here-document.
          const id = out.pipelines.push({ stages: [] }) - 1;
          bodyCtx = { ...ctx, pipe: { id, stage: 0 } };
          consumed.add(heredocPipe);
          const stages = heredocPipe.children.filter((c) => c.named);
          for (let i = stages.length - 1; i >= 0; i--) stack.push({ node: stages[i]!, ctx: { ...ctx, pipe: { id, stage: i + 1 } } });
        }
        const last = body && (body.type === 'list' || body.type === 'pipeline') ? lastStatement(body) : undefined;
        if (body && isCommandNode(body)) emit(body, bodyCtx, redirects);
        else if (last && isCommandNode(last)) {
          // The grammar hangs `a && b > f` and `a | b 2>&1` on the whole list; the shell gives them to `b`.
          lateRedirects.set(last, redirects);
          stack.push({ node: body!, ctx: bodyCtx });
        } else {
          emitRedirectsOnly(bodyCtx, redirects);
          if (body) stack.push({ node: body, ctx: bodyCtx });
        }
        for (const r of redirects) for (const c of r.children) if (STATEMENTS.has(c.type) && !consumed.has(c)) stack.push({ node: c, ctx: bodyCtx });
        continue;
      }
      case 'pipeline': {
        const id = out.pipelines.push({ stages: [] }) - 1;
        const stages = node.children.filter((c) => c.named && c.type !== 'comment' && !consumed.has(c));
        for (let i = stages.length - 1; i >= 0; i--) stack.push({ node: stages[i]!, ctx: { ...ctx, pipe: { id, stage: i } } });
        continue;
      }
      case 'subshell':
        out.subshell = true;
        pushChildren(node, { ...ctx, wordsOf: undefined, origin: ctx.origin === 'command' ? 'subshell' : ctx.origin, scope: { ...ctx.scope } });
        continue;
      case 'command_substitution':
      case 'process_substitution': {
        out.substitution = true;
        if (node.type === 'process_substitution') out.processSubstitution = true;
        const parent = ctx.wordsOf ? { parent: ctx.wordsOf.command, ...(ctx.wordsOf.word !== undefined ? { parentWord: ctx.wordsOf.word } : {}) } : {};
        pushChildren(node, { ...ctx, ...parent, wordsOf: undefined, origin: 'substitution', scope: { ...ctx.scope } });
        continue;
      }
      case 'function_definition': {
        const name = node.children.find((c) => c.type === 'word');
        const fn: ShellFunction = { name: name ? wordText(name, source) : '', body: [] };
        out.functions.push(fn);
        if (name) consumed.add(name);
        pushChildren(node, { ...ctx, inFunction: fn.name });
        continue;
      }
      case 'expansion': {
        if (ctx.inExpansion) break;
        const risk = riskyExpansion(source.slice(node.start, node.end));
        if (risk) flagRisky(risk);
        pushChildren(node, { ...ctx, inExpansion: true });
        continue;
      }
      case 'heredoc_redirect':
        out.heredoc = true;
        break;
      case 'herestring_redirect':
        if (RISKY_HERE_STRING.test(source.slice(node.start, node.end).replace(/^<<<\s*/, ''))) flagRisky('a here-string feeds a command substitution');
        break;
      case 'ERROR':
        fail(`a syntax error at \`${clip(source.slice(node.start, node.end))}\``);
        emitLooseWords(node, ctx);
        continue;
      case 'comment':
        continue;
    }
    pushChildren(node, ctx);
  }
  return out;

  /** Records one simple command (with the redirections of its statement) and queues what is inside its words. */
  function emit(node: SyntaxNode, ctx: Context, outerRedirects: SyntaxNode[]): void {
    const index = out.commands.length;
    const words: string[] = [];
    const redirects: ShellRedirect[] = [];
    const wordOf = new Map<SyntaxNode, number>();
    const skipped = new Set<SyntaxNode>();
    /** `=(…)` and `@(…)`: groups whose commands run as substitutions of this command. */
    const groups: Array<{ node: SyntaxNode; word: number }> = [];
    const kids = node.type === 'variable_assignment' ? [node] : node.children;
    if (node.type === 'test_command') words.push(...testWords(node, source));
    for (let i = 0; i < kids.length && node.type !== 'test_command'; i++) {
      const child = kids[i]!;
      if (REDIRECTS.has(child.type)) {
        redirects.push(...readRedirects(child, source));
        continue;
      }
      if (child.type === 'comment') continue;
      if (!child.named) {
        // The keyword of `export`/`local`/`unset`…
        if (node.type === 'declaration_command' || node.type === 'unset_command') words.push(child.type);
        continue;
      }
      const next = kids[i + 1];
      const glob = extglob(child, next, source);
      if (glob && next) {
        words.push(source.slice(child.start, next.end));
        skipped.add(child).add(next);
        if (glob.kind === 'qualifier') {
          flagRisky('a zsh glob qualifier runs a command');
          out.qualifierScripts.push({ command: index, text: glob.body });
        } else if (glob.kind !== 'pattern') {
          if (glob.kind === 'zsh-substitution') flagRisky('zsh `=(…)` process substitution runs a command');
          out.substitution = true;
          groups.push({ node: next, word: words.length - 1 });
        }
        i++;
        continue;
      }
      if (child.type === 'subshell') fail('an unexpected `(`');
      wordOf.set(child, words.length);
      if (child.type === 'command_name') {
        if (containsType(child, 'ansi_c_string')) flagRisky("the command name is spelled with `$'…'` escapes");
        const name = child.children[0] ? wordText(child.children[0], source) : source.slice(child.start, child.end);
        const known = knownProgram(name, ctx.scope.vars);
        if (known === undefined) flagRisky(`the program it runs is named at run time (\`${clip(name)}\`)`);
        words.push(known ?? name);
      } else if (child.type === 'variable_assignment') words.push(assignmentText(child, source));
      else words.push(wordText(child, source));
    }
    // The grammar drops a bare word between a command and its here-document (`python3 - <<EOF`): put it back.
    const gap = outerRedirects[0] ? source.slice(node.end, outerRedirects[0].start) : '';
    if (gap.trim() !== '' && /^[\s\w./:=+,@%-]+$/.test(gap)) {
      words.push(...gap.trim().split(/\s+/));
      out.repaired.push([node.end, outerRedirects[0]!.start]);
    }
    for (const r of outerRedirects) redirects.push(...readRedirects(r, source));
    if (redirects.some((r) => r.op.startsWith('<<') && r.op !== '<<<')) out.heredoc = true;
    const [start, end] = commandRange(node, outerRedirects);
    const written = source.slice(start, end).trim();
    const text = withoutSubstitutions(source, start, end, [node, ...outerRedirects]).trim();
    const command: ShellCommand = { words, redirects, text, written, origin: ctx.origin, depth: 0, background: ctx.background };
    if (ctx.parent !== undefined) command.parent = ctx.parent;
    if (ctx.parentWord !== undefined) command.parentWord = ctx.parentWord;
    if (ctx.pipe) command.pipe = ctx.pipe;
    if (ctx.inFunction !== undefined) command.inFunction = ctx.inFunction;
    if (ctx.scope.cd !== undefined) command.cd = ctx.scope.cd;
    if (ctx.scope.vars) command.vars = ctx.scope.vars;
    out.commands.push(command);
    if (ctx.pipe) (out.pipelines[ctx.pipe.id]!.stages[ctx.pipe.stage] ??= []).push(index);
    if (ctx.inFunction !== undefined) out.functions.find((f) => f.name === ctx.inFunction)?.body.push(index);
    updateScope(ctx.scope, command);
    // What is inside the words (substitutions, expansions) is walked after the command itself.
    const inner: Array<{ node: SyntaxNode; ctx: Context }> = [];
    const within = (child: SyntaxNode): Context => {
      const word = wordOf.get(child);
      return { ...ctx, wordsOf: { command: index, ...(word !== undefined ? { word } : {}) } };
    };
    for (const child of [...kids, ...outerRedirects]) {
      if (skipped.has(child) || consumed.has(child) || child === node) {
        if (child === node) for (const c of node.children) inner.push({ node: c, ctx: within(node) });
        continue;
      }
      // A here-document's statements (`cat <<EOF | sh`) were queued by the statement; its body is walked here.
      if (child.type === 'heredoc_redirect') for (const c of child.children) STATEMENTS.has(c.type) || inner.push({ node: c, ctx: within(child) });
      else inner.push({ node: child, ctx: within(child) });
    }
    for (const g of groups) for (const c of g.node.children) inner.push({ node: c, ctx: { ...ctx, origin: 'substitution', parent: index, parentWord: g.word, scope: { ...ctx.scope } } });
    for (let i = inner.length - 1; i >= 0; i--) stack.push(inner[i]!);
  }

  /**
   * Words the grammar could not place (`for x in a; do rm -rf ~` without `done`): each run of them
   * is judged as a command, so an error cannot hide one. The rest of the error is walked as usual.
   */
  function emitLooseWords(node: SyntaxNode, ctx: Context): void {
    const tasks: Array<{ node: SyntaxNode; ctx: Context }> = [];
    let run: SyntaxNode[] = [];
    const flush = () => {
      const words = run.map((w) => wordText(w, source));
      let k = 0;
      while (k < words.length && KEYWORDS.has(words[k]!)) k++;
      if (k < words.length) {
        const from = run[k]!.start;
        const to = run[run.length - 1]!.end;
        const index = out.commands.length;
        const text = withoutSubstitutions(source, from, to, run.slice(k)).trim();
        out.commands.push({ words: words.slice(k), redirects: [], text, written: source.slice(from, to), origin: ctx.origin, depth: 0, background: ctx.background, ...(ctx.scope.cd !== undefined ? { cd: ctx.scope.cd } : {}) });
        run.slice(k).forEach((w, i) => tasks.push({ node: w, ctx: { ...ctx, wordsOf: { command: index, word: i } } }));
      }
      run = [];
    };
    for (const child of node.children) {
      const last = run[run.length - 1];
      if (LOOSE_WORDS.has(child.type) && !(last && source.slice(last.end, child.start).includes('\n'))) {
        run.push(child);
        continue;
      }
      flush();
      if (LOOSE_WORDS.has(child.type)) run.push(child);
      else tasks.push({ node: child, ctx });
    }
    flush();
    for (let i = tasks.length - 1; i >= 0; i--) stack.push(tasks[i]!);
  }

  /** Redirections of a group (`( … ) > out`, `{ …; } 2>&1`) or of nothing (`< ~/.netrc`): a command of their own. */
  function emitRedirectsOnly(ctx: Context, redirectNodes: SyntaxNode[]): void {
    if (redirectNodes.length === 0) return;
    const redirects = redirectNodes.flatMap((r) => readRedirects(r, source));
    const text = redirectNodes.map((r) => source.slice(r.start, redirectEnd(r)).trim()).join(' ');
    const index = out.commands.length;
    const command: ShellCommand = { words: [], redirects, text, written: text, origin: ctx.origin, depth: 0, background: ctx.background };
    if (ctx.pipe) command.pipe = ctx.pipe;
    if (ctx.scope.cd !== undefined) command.cd = ctx.scope.cd;
    out.commands.push(command);
    if (ctx.pipe) (out.pipelines[ctx.pipe.id]!.stages[ctx.pipe.stage] ??= []).push(index);
    for (let i = redirectNodes.length - 1; i >= 0; i--) {
      const r = redirectNodes[i]!;
      for (const c of r.children) if (!STATEMENTS.has(c.type)) stack.push({ node: c, ctx: { ...ctx, wordsOf: { command: index } } });
    }
    if (redirects.some((r) => r.op.startsWith('<<') && r.op !== '<<<')) out.heredoc = true;
  }
}

/**
 * A command name as the shell will run it: variables set plainly before it on the line put in
 * (`x=rm; $x` runs `rm`); undefined when it still depends on something known only at run time (a
 * variable from the environment, a substitution). `$HOME` and `$PWD` lead to a path whose last
 * segment is the program, which is what the rules read.
 */
function knownProgram(name: string, vars: Readonly<Record<string, string>> = {}): string | undefined {
  if (!/[$`]/.test(name)) return name;
  const out = substituteKnownVars(name, vars);
  if (/^(?:\$HOME|\$\{HOME\}|\$PWD|\$\{PWD\})\/[^$`]*$/.test(out)) return out;
  return /[$`\s]/.test(out) ? undefined : out;
}

/** After a command runs: `cd` moves the scope's folder, a plain assignment sets a variable. */
function updateScope(scope: Scope, command: ShellCommand): void {
  const { name, args, assignments } = programOf(command.words);
  if (name === 'cd' || name === 'pushd' || name === 'popd') {
    const target = name === 'popd' ? undefined : args.filter((a) => a !== '--' && !/^-[LPe@]+$/.test(a))[0] ?? (name === 'cd' ? '~' : undefined);
    const known = target !== undefined && target !== '-' && !/[$`*?[]/.test(target);
    scope.cd = known && scope.cd !== null && (scope.cd?.length ?? 0) < MAX_CDS ? [...(scope.cd ?? []), target] : null;
    return;
  }
  const setting = name === '' || name === 'export' || name === 'local' || name === 'declare' || name === 'readonly' || name === 'typeset';
  if (!setting || (name === '' && !assignments)) return;
  for (const word of command.words) {
    const eq = word.indexOf('=');
    if (eq <= 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(word.slice(0, eq))) continue;
    const vars = scope.vars ?? {};
    if (Object.keys(vars).length >= MAX_VARS && !Object.hasOwn(vars, word.slice(0, eq))) continue;
    scope.vars = { ...vars, [word.slice(0, eq)]: word.slice(eq + 1) };
  }
}
