import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { partCwd, type CommandPart } from './command-part';
import { SecretLocations } from '../files/secret-locations';
import { expandHomeVariable } from '../files/workspace-boundary';

export interface SecretWordContext {
  workspaceRoot: string;
  home?: string;
  /** The session's own readable folders (scratch, skills): not secret inside the OpenDev home. */
  readableDirs?: readonly string[];
}

/**
 * Why a simple command needs the user at every level because it names a secret location: one of
 * its words or redirections (after `~`, `$HOME` and `$PWD`; the value of `--opt=…` and `VAR=…`
 * too) is, or leads through a link to, a secret location, or is a glob or variable path that could
 * be one (`~/.ss*`, `/proc/$PPID/environ`). Undefined when it names none.
 */
export function secretConcern(part: CommandPart, ctx: SecretWordContext): string | undefined {
  const secrets = new SecretLocations({ workspace: ctx.workspaceRoot, ...(ctx.readableDirs ? { allow: ctx.readableDirs } : {}), ...(ctx.home ? { home: ctx.home } : {}) });
  const home = ctx.home ?? homedir();
  // Relative paths resolve where the part runs (after `cd ~/.ssh`, `id_rsa` is the key); not at all where that is unknown.
  const cwd = partCwd(part, ctx.workspaceRoot, home);
  const named = (word: string) => candidates(word).some((c) => namesSecret(c, secrets, home, cwd));
  const word = part.words.find(named);
  if (word !== undefined) return `reads ${word}, a secret location`;
  // A here-document or here-string is text, not a file.
  const redirect = part.redirects.find((r) => !r.op.includes('<<') && named(r.target));
  if (redirect) return `${redirect.op.includes('>') ? 'writes to' : 'reads'} ${redirect.target}, a secret location`;
  return undefined;
}

/** The word, and the value of `--option=value` or `NAME=value`. */
function candidates(word: string): string[] {
  const eq = word.indexOf('=');
  return eq > 0 ? [word, word.slice(eq + 1)] : [word];
}

function namesSecret(word: string, secrets: SecretLocations, home: string, cwd: string | undefined): boolean {
  if (word === '') return false;
  let path = expandHomeVariable(word, home);
  if (cwd !== undefined) path = path.replace(/^(?:\$PWD|\$\{PWD\})(?=\/|$)/, cwd);
  // Another variable could hold anything: read it as a wildcard.
  path = path.replace(/\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$[$!#?*@0-9]/g, '*');
  if (!isAbsolute(path) && cwd === undefined) return false;
  const absolute = resolve(cwd ?? '/', path);
  return /[*?[]/.test(path) ? secrets.locateGlob(absolute) !== undefined : secrets.locate(absolute) !== undefined;
}
