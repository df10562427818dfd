import { createRequire } from 'node:module';
import type * as AstGrep from '@ast-grep/napi';

export type AstGrepModule = typeof AstGrep;

/** One tree-sitter grammar as ast-grep names it, and the file extensions parsed with it. */
export interface AstParser {
  /** The name passed to `parse()`: a built-in `Lang` or a registered dynamic language. */
  lang: string;
  extensions: readonly string[];
  /** The character ast-grep puts in place of `$` when it parses a pattern (dynamic languages). */
  expando?: string;
}

/** Wraps a statement-level pattern in code where it parses as it would in a real file. */
export interface PatternContext {
  prefix: string;
  suffix: string;
}

/** A language the `lang` argument can name. */
export interface AstLanguage {
  id: string;
  label: string;
  aliases: readonly string[];
  parsers: readonly AstParser[];
  /** npm package providing the grammar; undefined for those built into @ast-grep/napi. */
  packageName?: string;
  context?: PatternContext;
}

/**
 * The languages `type: "ast"` knows. TypeScript, TSX, JavaScript, HTML and CSS are built into
 * @ast-grep/napi; the others are `@ast-grep/lang-*` packages (prebuilt tree-sitter grammars)
 * registered at first use. Go, C and C++ parse a bare call like `fmt.Println($A)` as something
 * else at the top level (a type conversion, a macro), so their patterns are also tried inside a
 * function body.
 */
const LANGUAGES: readonly AstLanguage[] = [
  {
    id: 'typescript',
    label: 'TypeScript',
    aliases: ['ts', 'mts', 'cts'],
    parsers: [
      { lang: 'TypeScript', extensions: ['ts', 'mts', 'cts'] },
      { lang: 'Tsx', extensions: ['tsx'] },
    ],
  },
  { id: 'tsx', label: 'TSX', aliases: [], parsers: [{ lang: 'Tsx', extensions: ['tsx'] }] },
  {
    id: 'javascript',
    label: 'JavaScript',
    aliases: ['js', 'jsx', 'mjs', 'cjs', 'node'],
    parsers: [{ lang: 'JavaScript', extensions: ['js', 'mjs', 'cjs', 'jsx'] }],
  },
  { id: 'python', label: 'Python', aliases: ['py', 'python3'], packageName: '@ast-grep/lang-python', parsers: [{ lang: 'python', extensions: ['py', 'pyi'] }] },
  {
    id: 'go',
    label: 'Go',
    aliases: ['golang'],
    packageName: '@ast-grep/lang-go',
    parsers: [{ lang: 'go', extensions: ['go'] }],
    context: { prefix: 'package main\nfunc _() {\n', suffix: '\n}\n' },
  },
  { id: 'rust', label: 'Rust', aliases: ['rs'], packageName: '@ast-grep/lang-rust', parsers: [{ lang: 'rust', extensions: ['rs'] }] },
  { id: 'java', label: 'Java', aliases: [], packageName: '@ast-grep/lang-java', parsers: [{ lang: 'java', extensions: ['java'] }] },
  {
    id: 'c',
    label: 'C',
    aliases: ['h'],
    packageName: '@ast-grep/lang-c',
    parsers: [{ lang: 'c', extensions: ['c', 'h'] }],
    context: { prefix: 'void _(void) {\n', suffix: ';\n}\n' },
  },
  {
    id: 'cpp',
    label: 'C++',
    aliases: ['c++', 'cc', 'cxx', 'hpp', 'hh'],
    packageName: '@ast-grep/lang-cpp',
    parsers: [{ lang: 'cpp', extensions: ['cpp', 'cc', 'cxx', 'c++', 'hpp', 'hh', 'hxx', 'h++', 'h', 'ipp', 'inl', 'cu', 'ino'] }],
    context: { prefix: 'void _() {\n', suffix: ';\n}\n' },
  },
  { id: 'html', label: 'HTML', aliases: ['htm'], parsers: [{ lang: 'Html', extensions: ['html', 'htm'] }] },
  { id: 'css', label: 'CSS', aliases: [], parsers: [{ lang: 'Css', extensions: ['css'] }] },
  // Also the grammar of the shell reader (core/shell), which parses every command the agent runs.
  { id: 'bash', label: 'Bash', aliases: ['sh', 'shell', 'zsh'], packageName: '@ast-grep/lang-bash', parsers: [{ lang: 'bash', extensions: ['sh', 'bash', 'zsh', 'ksh', 'bats'] }] },
];

/** What `registerDynamicLanguage` takes for one grammar (the shell reader hands it to its parser process). */
export interface LangRegistration {
  libraryPath: string;
  extensions: string[];
  languageSymbol?: string;
  expandoChar?: string;
}

export interface AstRuntime {
  napi: AstGrepModule;
  languages: AstLanguage[];
  /** Languages whose grammar package could not be loaded, with the reason. */
  unavailable: Map<string, string>;
  /** The registered dynamic grammars, by their `lang` name. */
  registrations: Readonly<Record<string, LangRegistration>>;
}

let runtime: AstRuntime | { error: string } | undefined;

/**
 * Loads @ast-grep/napi and registers the grammar packages, once per process. Native modules are
 * required at run time from node_modules (the bundle marks them external), so a missing or
 * unloadable one degrades the ast search instead of breaking the extension.
 */
export function loadAstRuntime(): AstRuntime | { error: string } {
  if (runtime) return runtime;
  const nodeRequire = createRequire(__filename);
  let napi: AstGrepModule;
  try {
    napi = nodeRequire('@ast-grep/napi') as AstGrepModule;
  } catch (err) {
    runtime = { error: `@ast-grep/napi could not be loaded (${firstLine(err)})` };
    return runtime;
  }
  const registrations: Record<string, LangRegistration> = {};
  const unavailable = new Map<string, string>();
  const languages: AstLanguage[] = [];
  for (const language of LANGUAGES) {
    if (!language.packageName) {
      languages.push(language);
      continue;
    }
    try {
      const registration = nodeRequire(language.packageName) as LangRegistration;
      registration.libraryPath; // resolves the prebuilt grammar now: throws when there is none for this platform
      const name = language.parsers[0]!.lang;
      registrations[name] = registration;
      languages.push({ ...language, parsers: language.parsers.map((p) => ({ ...p, expando: registration.expandoChar })) });
    } catch (err) {
      unavailable.set(language.id, `${language.packageName} could not be loaded (${firstLine(err)})`);
    }
  }
  try {
    if (Object.keys(registrations).length > 0) napi.registerDynamicLanguage(registrations);
  } catch (err) {
    for (const language of languages.filter((l) => l.packageName)) unavailable.set(language.id, `grammar registration failed (${firstLine(err)})`);
    languages.splice(0, languages.length, ...languages.filter((l) => !l.packageName));
  }
  runtime = { napi, languages, unavailable, registrations };
  return runtime;
}

/** Finds a language by id or alias, case-insensitively. */
export function findLanguage(languages: readonly AstLanguage[], name: string): AstLanguage | undefined {
  const key = name.trim().toLowerCase();
  return languages.find((l) => l.id === key || l.label.toLowerCase() === key || l.aliases.includes(key));
}

/** The language whose parsers claim this file's extension. */
export function languageForFile(languages: readonly AstLanguage[], path: string): AstLanguage | undefined {
  const ext = extensionOf(path);
  if (!ext) return undefined;
  return languages.find((l) => l.parsers.some((p) => p.extensions.includes(ext)));
}

/** The parser of `language` for this file: by extension, else the language's first one. */
export function parserForFile(language: AstLanguage, path: string): AstParser | undefined {
  const ext = extensionOf(path);
  return language.parsers.find((p) => p.extensions.includes(ext));
}

export function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** "typescript, tsx, …" (plus those unavailable here, if any) for error messages. */
export function describeLanguages(runtimeState: AstRuntime): string {
  const names = runtimeState.languages.map((l) => l.id).join(', ');
  const missing = [...runtimeState.unavailable.keys()];
  return missing.length > 0 ? `${names} (unavailable here: ${missing.join(', ')})` : names;
}

function firstLine(err: unknown): string {
  return ((err as Error)?.message ?? String(err)).split('\n')[0]!;
}
