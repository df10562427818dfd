import { programOf } from '../process/command-program';
import { fileWrites, type CommandPart, type PartOrigin, type SplitCommand } from './command-part';
import { matchParen, newBuilder, readDollar, readDoubleQuoted, readHeredocBodies, readRedirect, type Builder, type ReaderHost } from './shell-readers';

/**
 * Splits a shell command line into the simple commands it runs, so each one is judged on its own
 * and an allowed first command never carries a denied one along. Quote-aware: nothing splits
 * inside quotes, but `$(…)` and backticks inside double quotes are still commands. Splits at
 * `&&`, `||`, `;`, `|`, `&`, newlines, subshells `( )`, `$(…)`, backticks, process substitution
 * `<(…)`/`>(…)`, zsh `=(…)`, here-document bodies with substitutions, `bash -c`/`eval` scripts and
 * `find -exec`. When unsure it splits more and says so (parseError), never less.
 */

const MAX_DEPTH = 12;
const DECEPTIVE_BREAKS = new Set(['\r', '\u2028', '\u2029', '\u0085', '\v', '\f']);
const LEADING_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{', 'time']);
/** Words that close a block or open a loop header: no command of their own. */
const NO_COMMAND = new Set(['fi', 'done', 'esac', '}', 'for', 'select', 'case', 'function']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'busybox']);

export function splitCommand(command: string): SplitCommand {
  const splitter = new Splitter(command.replace(/\r\n/g, '\n'), 0);
  splitter.list(undefined, 'command');
  return splitter.result();
}

class Splitter implements ReaderHost {
  i = 0;
  heredocs: ReaderHost['heredocs'] = [];
  private readonly parts: CommandPart[] = [];
  private substitution = false;
  private multiline = false;
  private deceptive?: string;
  private risky?: string;
  private parseError?: string;
  private afterCd = false;

  constructor(
    readonly s: string,
    private readonly depth: number,
  ) {}

  result(): SplitCommand {
    const out: SplitCommand = { parts: this.parts, substitution: this.substitution, multiline: this.multiline };
    if (this.deceptive) out.deceptive = this.deceptive;
    if (this.risky) out.risky = this.risky;
    if (this.parseError) out.parseError = this.parseError;
    return out;
  }

  /** Reads commands until `stop` (`)` or a backtick, consumed) or the end of the text. */
  list(stop: ')' | '`' | undefined, origin: PartOrigin): void {
    const s = this.s;
    let b = newBuilder(this.parts.length);
    let needCommand = false; // after && || |: a command must follow
    let lineHadCommand = false;
    let afterNewline = false;

    const startWord = () => {
      if (!b.inWord) {
        b.inWord = true;
        b.wordStart = b.raw.length;
        b.wordSource = this.i;
        b.sourceStart ??= this.i;
      }
    };
    const endWord = () => {
      if (!b.inWord) return;
      if (b.pendingOp !== undefined) {
        b.redirects.push({ op: b.pendingOp, target: b.word });
        b.pendingOp = undefined;
      } else {
        b.words.push(b.word);
        b.wordStarts.push(b.wordStart);
        b.sourceStarts.push(b.wordSource);
      }
      b.word = '';
      b.inWord = false;
    };
    /** Ends the current simple command; true when it had anything in it. */
    const finish = (end: number): boolean => {
      endWord();
      if (b.pendingOp !== undefined) this.fail(`\`${b.pendingOp}\` has no target`);
      const had = b.words.length > 0 || b.redirects.length > 0 || b.grouped;
      if (b.words.length > 0 || b.redirects.length > 0) this.emit(b, origin, end);
      if (had) {
        if (afterNewline) this.multiline = true;
        lineHadCommand = true;
        needCommand = false;
      }
      b = newBuilder(this.parts.length);
      return had;
    };
    const operator = (op: string, at: number) => {
      if (!finish(at)) this.fail(`\`${op}\` with no command before it`);
      needCommand = op === '&&' || op === '||' || op === '|' || op === '|&';
    };

    while (this.i < s.length) {
      const c = s[this.i]!;
      const next = s[this.i + 1];
      if (stop && c === stop) {
        this.i++;
        finish(this.i - 1);
        if (needCommand) this.fail('an operator with no command after it');
        return;
      }
      if (c === '\n' || DECEPTIVE_BREAKS.has(c)) {
        this.i++;
        if (c !== '\n' && s.slice(this.i).trim() !== '') this.deceptive ??= `an unquoted ${describeBreak(c)} splits the line where the display may not`;
        finish(this.i - 1);
        readHeredocBodies(this);
        if (!needCommand && lineHadCommand) afterNewline = true;
        continue;
      }
      if (c === ' ' || c === '\t') {
        endWord();
        b.raw += c;
        this.i++;
        continue;
      }
      if (c === '#' && !b.inWord) {
        while (this.i < s.length && s[this.i] !== '\n') this.i++;
        continue;
      }
      if (c === '\\') {
        if (next === '\n') {
          this.i += 2;
          continue;
        }
        startWord();
        b.word += next ?? '';
        b.raw += s.slice(this.i, this.i + 2);
        this.i += 2;
        continue;
      }
      if (c === "'") {
        startWord();
        const end = s.indexOf("'", this.i + 1);
        if (end === -1) this.fail('an unclosed single quote');
        const stopAt = end === -1 ? s.length : end + 1;
        b.word += s.slice(this.i + 1, end === -1 ? s.length : end);
        b.raw += s.slice(this.i, stopAt);
        this.i = stopAt;
        continue;
      }
      if (c === '"') {
        startWord();
        readDoubleQuoted(this, b);
        continue;
      }
      if (c === '$') {
        startWord();
        readDollar(this, b);
        continue;
      }
      if (c === '`') {
        startWord();
        this.i++;
        this.nested('`', 'substitution');
        continue;
      }
      if ((c === '<' || c === '>') && next === '(') {
        endWord();
        this.i += 2;
        this.nested(')', 'substitution');
        continue;
      }
      if (c === '=' && next === '(') {
        if (b.inWord && /^[A-Za-z_]\w*(?:\[[^\]]*\])?\+?$/.test(b.word)) {
          // An array assignment: `files=(a b c)`.
          const end = matchParen(s, this.i + 1);
          b.word += s.slice(this.i, end);
          b.raw += s.slice(this.i, end);
          this.i = end;
          continue;
        }
        this.flagRisky('zsh `=(…)` process substitution runs a command');
        endWord();
        this.i += 2;
        this.nested(')', 'substitution');
        continue;
      }
      if ('?*+!@'.includes(c) && next === '(') {
        const end = matchParen(s, this.i + 1);
        const body = s.slice(this.i + 2, Math.max(this.i + 2, end - 1));
        if (/^(?:e[:'"]|\+)/.test(body)) {
          // zsh glob qualifiers `*(e:cmd:)`, `*(+cmd)` run a command for every file.
          this.flagRisky('a zsh glob qualifier runs a command');
          this.sub(body.replace(/^e(.)([\s\S]*)\1$/, '$2').replace(/^\+/, ''), 'substitution');
        } else if (c === '@') {
          // `@(…)`: an extglob in bash, a subexpression that runs in PowerShell; judged as commands.
          this.substitution = true;
          this.sub(body, 'substitution');
        }
        startWord();
        b.word += s.slice(this.i, end);
        b.raw += s.slice(this.i, end);
        this.i = end;
        continue;
      }
      if (c === '<' || c === '>' || (c === '&' && next === '>')) {
        if (b.inWord && /^\d+$/.test(b.word) && b.pendingOp === undefined) {
          b.word = '';
          b.inWord = false; // a file descriptor: `2>`
        } else endWord();
        b.sourceStart ??= this.i;
        readRedirect(this, b);
        continue;
      }
      if (c === '&' || c === '|' || c === ';') {
        const two = s.slice(this.i, this.i + 2);
        const op = two === '&&' || two === '||' || two === '|&' || two === ';;' || two === ';&' ? two : c;
        this.i += op.length;
        operator(op === ';;' || op === ';&' ? ';' : op, this.i - op.length);
        continue;
      }
      if (c === '(') {
        if (!b.inWord && b.words.every((w) => LEADING_KEYWORDS.has(w))) {
          this.i++;
          b.grouped = true;
          this.nested(')', 'subshell');
          continue;
        }
        const rest = s.slice(this.i + 1).match(/^\s*\)/);
        if (rest) {
          // A function definition `name() { … }`: the name runs nothing; the body's commands are judged.
          this.i += 1 + rest[0].length;
          b = newBuilder(this.parts.length);
          b.grouped = true;
          continue;
        }
        this.fail('an unexpected `(`');
        endWord();
        this.i++;
        this.nested(')', 'subshell');
        continue;
      }
      if (c === ')') {
        this.fail('an unmatched `)`');
        this.i++;
        finish(this.i - 1);
        continue;
      }
      startWord();
      b.word += c;
      b.raw += c;
      this.i++;
    }
    finish(s.length);
    if (stop) this.fail(stop === ')' ? 'an unclosed `(`' : 'an unclosed backtick');
    if (needCommand) this.fail('an operator with no command after it');
  }

  fail(reason: string): void {
    this.parseError ??= reason;
  }

  flagRisky(reason: string): void {
    this.risky ??= reason;
  }

  flagSubstitution(): void {
    this.substitution = true;
  }

  /** A nested command list read in place (the text stays in this splitter). */
  nested(stop: ')' | '`', origin: PartOrigin): void {
    if (origin === 'substitution') this.substitution = true;
    if (this.depth >= MAX_DEPTH) {
      this.fail('nesting too deep');
      this.i = this.s.length;
      return;
    }
    const saved = this.afterCd;
    this.list(stop, origin);
    this.afterCd = saved;
  }

  /** A separate text that runs as commands (a script, a here-document substitution, a qualifier body). */
  sub(text: string, origin: PartOrigin): void {
    if (this.depth >= MAX_DEPTH) return this.fail('nesting too deep');
    const inner = new Splitter(text, this.depth + 1);
    inner.afterCd = this.afterCd;
    inner.list(undefined, origin);
    const r = inner.result();
    this.parts.push(...r.parts);
    this.substitution ||= r.substitution;
    this.multiline ||= r.multiline;
    this.deceptive ??= r.deceptive;
    this.risky ??= r.risky;
    if (r.parseError) this.fail(r.parseError);
  }

  /** Turns a finished simple command into parts: its own, plus scripts it runs (`bash -c`, `eval`, `find -exec`). */
  private emit(b: Builder, origin: PartOrigin, end: number): void {
    let k = 0;
    while (k < b.words.length && LEADING_KEYWORDS.has(b.words[k]!)) k++;
    const words = b.words.slice(k);
    if (words.length > 0 && NO_COMMAND.has(words[0]!)) return;
    if (words.length === 0 && b.redirects.length === 0) return;
    const text = (k < b.wordStarts.length ? b.raw.slice(b.wordStarts[k]) : b.raw).trim();
    const from = k < b.sourceStarts.length ? b.sourceStarts[k]! : (b.sourceStart ?? end);
    const written = this.s.slice(from, end).trim();
    const part: CommandPart = { text, written, words, redirects: b.redirects, writes: [], origin, afterCd: this.afterCd };
    part.writes = fileWrites(part);
    this.parts.splice(b.slot, 0, part);

    const { name, args } = programOf(words);
    if (name === 'cd' || name === 'pushd' || name === 'popd') this.afterCd = true;
    if (SHELLS.has(name)) {
      const flag = args.findIndex((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
      if (flag !== -1 && args[flag + 1] !== undefined) this.sub(args[flag + 1]!, 'script');
    } else if (name === 'eval' && args.length > 0) this.sub(args.join(' '), 'script');
    else if (name === 'find') {
      for (let j = 0; j < args.length; j++) {
        if (!/^-(?:exec|execdir|ok|okdir)$/.test(args[j]!)) continue;
        const close = args.findIndex((a, n) => n > j && (a === ';' || a === '+'));
        const inner = args.slice(j + 1, close === -1 ? args.length : close).filter((a) => a !== '{}');
        if (inner.length > 0) this.parts.push({ text: inner.join(' '), written: inner.join(' '), words: inner, redirects: [], writes: [], origin: 'exec', afterCd: this.afterCd });
      }
    }
  }
}

function describeBreak(c: string): string {
  return c === '\r' ? 'carriage return' : `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} line break`;
}
