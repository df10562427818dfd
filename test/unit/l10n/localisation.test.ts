// Every string a user of the extension reads is translatable, and translated: the manifest through
// package.nls*.json, the extension's own code (src/vscode) and the chat webview through l10n.t and
// the bundles in l10n/. The strings are found statically (a TypeScript AST walk), so a new string
// without its translation, a stale translation or a literal message without l10n.t fails here.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';

const root = join(__dirname, '../../../..');
const LOCALES = ['zh-cn'];
const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, unknown>;

/** The manifest fields VS Code shows a user (command titles, settings' descriptions, views, walkthroughs). */
const SHOWN_FIELDS = new Set(['title', 'category', 'name', 'contextualTitle', 'description', 'markdownDescription', 'contents', 'deprecationMessage', 'markdownDeprecationMessage', 'displayName']);
const SHOWN_LISTS = new Set(['enumDescriptions', 'markdownEnumDescriptions']);

/** Each shown string of the manifest with where it is ("contributes/commands/0/title"). */
function shownManifestStrings(): Array<{ where: string; value: string }> {
  const manifest = readJson('package.json');
  const out: Array<{ where: string; value: string }> = [];
  const walk = (node: unknown, path: string[]): void => {
    if (Array.isArray(node)) node.forEach((v, i) => walk(v, [...path, String(i)]));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, [...path, k]);
    else if (typeof node === 'string') {
      const field = path[path.length - 1]!;
      const list = path[path.length - 2];
      if (SHOWN_FIELDS.has(field) || (list && SHOWN_LISTS.has(list))) out.push({ where: path.join('/'), value: node });
    }
  };
  walk(manifest.contributes, ['contributes']);
  for (const top of ['displayName', 'description'] as const) out.push({ where: top, value: String(manifest[top]) });
  walk((manifest.capabilities as Record<string, unknown>).untrustedWorkspaces, ['capabilities', 'untrustedWorkspaces']);
  return out;
}

function tsFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const rel = join(dir, name);
    if (statSync(join(root, rel)).isDirectory()) return tsFiles(rel);
    return rel.endsWith('.ts') && !rel.endsWith('.d.ts') ? [rel] : [];
  });
}

const parse = (file: string, text = readFileSync(join(root, file), 'utf8')) => ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);

function visit(node: ts.Node, each: (node: ts.Node) => void): void {
  each(node);
  node.forEachChild((child) => visit(child, each));
}

/** `l10n.t(...)` or `vscode.l10n.t(...)`. */
function isL10nCall(node: ts.Node): node is ts.CallExpression {
  if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression) || node.expression.name.text !== 't') return false;
  const target = node.expression.expression;
  return (ts.isIdentifier(target) && target.text === 'l10n') || (ts.isPropertyAccessExpression(target) && target.name.text === 'l10n');
}

/** The messages of every l10n.t call in `files`, and the calls whose message is not a literal (not extractable). */
function l10nMessages(files: string[]): { messages: Map<string, string>; dynamic: string[] } {
  const messages = new Map<string, string>();
  const dynamic: string[] = [];
  for (const file of files) {
    const source = parse(file);
    visit(source, (node) => {
      if (!isL10nCall(node)) return;
      const first = node.arguments[0];
      const where = `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) messages.set(first.text, where);
      else dynamic.push(where);
    });
  }
  return { messages, dynamic };
}

/** The window calls whose text a user reads, and which of their arguments (by index) are that text. */
const SHOWN_CALLS: Record<string, 'all' | 'options'> = {
  showInformationMessage: 'all',
  showWarningMessage: 'all',
  showErrorMessage: 'all',
  setStatusBarMessage: 'all',
  showInputBox: 'options',
  showQuickPick: 'options',
  withProgress: 'options',
};
const SHOWN_OPTIONS = new Set(['title', 'prompt', 'placeHolder', 'placeholder', 'detail']);

/** A string literal or template a user would read, written in place of l10n.t. */
function literalText(node: ts.Node): boolean {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node);
}

/** Where a window message, button or prompt is a literal instead of l10n.t (file:line and the call). */
function literalMessages(file: string, text?: string): string[] {
  const source = parse(file, text);
  const found: string[] = [];
  visit(source, (node) => {
    if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) return;
    const kind = SHOWN_CALLS[node.expression.name.text];
    if (!kind) return;
    const where = `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${node.expression.name.text}`;
    for (const arg of node.arguments) {
      if (kind === 'all' && literalText(arg)) found.push(where);
      if (ts.isObjectLiteralExpression(arg)) {
        for (const p of arg.properties) {
          if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && SHOWN_OPTIONS.has(p.name.text) && literalText(p.initializer)) found.push(`${where} (${p.name.text})`);
        }
      }
    }
  });
  return found;
}

/**
 * The chat's own ways to show a notice or an error (the controller's notice/error, the history's
 * and the follow-up queue's warn, the input's onProblem) and the fields its entries and messages
 * carry text in: a literal there is a message nobody translates.
 */
const CHAT_NOTICE_CALLS = new Set(['notice', 'error', 'warn', 'onProblem']);
const CHAT_TEXT_FIELDS = new Set(['text', 'problem']);
/** The chat's files: the controller and what it is split into, the queue, the history, the sessions. */
const isChatFile = (file: string) => /src\/vscode\/(chat-[^/]*|follow-ups|failed-turn)\.ts$/.test(file);

/** Where the chat shows a literal notice (file:line and the call or field). */
function literalChatNotices(file: string, text?: string): string[] {
  const source = parse(file, text);
  const found: string[] = [];
  const where = (node: ts.Node, what: string) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${what}`;
  visit(source, (node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
      const first = node.arguments[0];
      // The log (`this.log.warn`) is for bug reports and stays English.
      const toLog = ts.isPropertyAccessExpression(callee) && /\blog(ger)?$/i.test(callee.expression.getText(source));
      if (name && CHAT_NOTICE_CALLS.has(name) && !toLog && first && literalText(first)) found.push(where(node, name));
    }
    // `{ kind: 'notice', text: '…' }` and `{ type: 'sessions', problem: '…' }`; `text` of other objects (a user's message) is not a notice.
    if (ts.isObjectLiteralExpression(node)) {
      const kind = node.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && (p.name.text === 'kind' || p.name.text === 'type'));
      const isNotice = kind && ts.isStringLiteral(kind.initializer) && ['notice', 'error', 'sessions'].includes(kind.initializer.text);
      for (const p of node.properties) {
        if (isNotice && ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && CHAT_TEXT_FIELDS.has(p.name.text) && literalText(p.initializer)) found.push(where(p, p.name.text));
      }
    }
  });
  return found;
}

const placeholders = (s: string) => [...s.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort();

describe('localisation', () => {
  describe('the manifest (package.nls.json)', () => {
    const english = readJson('package.nls.json');

    it('shows no literal string: every title, description and view name is a %key%', () => {
      const literal = shownManifestStrings().filter((s) => !/^%[^%]+%$/.test(s.value));
      assert.deepEqual(literal, []);
    });

    it('has every %key% in English and in each locale, and no key nothing uses', () => {
      const used = new Set(shownManifestStrings().map((s) => s.value.slice(1, -1)));
      for (const file of ['package.nls.json', ...LOCALES.map((l) => `package.nls.${l}.json`)]) {
        const keys = Object.keys(readJson(file));
        assert.deepEqual([...used].filter((k) => !keys.includes(k)), [], `${file}: missing keys`);
        assert.deepEqual(keys.filter((k) => !used.has(k)), [], `${file}: unused keys`);
      }
    });

    it('translates every string (non-empty, same command links and setting references)', () => {
      for (const locale of LOCALES) {
        const translated = readJson(`package.nls.${locale}.json`);
        for (const [key, value] of Object.entries(english)) {
          const t = translated[key];
          assert.ok(typeof t === 'string' && t.trim(), `${locale}: ${key} is empty`);
          const refs = (s: string) => [...s.matchAll(/\(command:[\w.]+\)|#[\w.]+#/g)].map((m) => m[0]).sort();
          assert.deepEqual(refs(t as string), refs(value as string), `${locale}: ${key} keeps its command links and setting references`);
        }
      }
    });
  });

  describe('the extension and the chat (l10n/bundle.l10n*.json)', () => {
    const files = [...tsFiles('src/vscode'), ...tsFiles('src/wording'), ...tsFiles('webview')];
    const { messages, dynamic } = l10nMessages(files);
    const english = readJson('l10n/bundle.l10n.json');

    it('finds the strings of both (the walk itself works)', () => {
      // Strings of the extension (a notification), a plain-Node module (@vscode/l10n) and the webview.
      for (const m of ['OpenDev: no saved sessions for this project yet.', 'Enter a key, or press Escape to cancel.', 'Send', 'Accept All']) assert.ok(messages.has(m), m);
    });

    it('gives l10n.t a literal message everywhere, so the strings can be extracted', () => {
      assert.deepEqual(dynamic, []);
    });

    it('has every l10n.t message in the English bundle, and nothing stale (npm run l10n regenerates it)', () => {
      assert.deepEqual([...messages.keys()].filter((m) => !(m in english)).map((m) => `${m} (${messages.get(m)})`), [], 'missing from l10n/bundle.l10n.json');
      assert.deepEqual(Object.keys(english).filter((m) => !messages.has(m)), [], 'stale in l10n/bundle.l10n.json');
    });

    it('translates every message in each locale, with the same placeholders', () => {
      for (const locale of LOCALES) {
        const translated = readJson(`l10n/bundle.l10n.${locale}.json`);
        assert.deepEqual([...messages.keys()].filter((m) => typeof translated[m] !== 'string' || !(translated[m] as string).trim()), [], `${locale}: missing`);
        assert.deepEqual(Object.keys(translated).filter((m) => !messages.has(m)), [], `${locale}: stale`);
        for (const [m, t] of Object.entries(translated)) assert.deepEqual(placeholders(t as string), placeholders(m), `${locale}: placeholders of "${m}"`);
      }
    });
  });

  describe('the walkthrough pages', () => {
    // VS Code shows `media/x.nls.<locale>.md` in place of a step's `media/x.md` when it exists (then
    // `x.nls.<language>.md`, then the page itself): a page cannot be translated through %keys%.
    const manifest = readJson('package.json') as { contributes: { walkthroughs: Array<{ steps: Array<{ media: { markdown?: string } }> }> } };
    const pages = manifest.contributes.walkthroughs.flatMap((w) => w.steps.map((s) => s.media.markdown)).filter((m): m is string => Boolean(m));

    it('has a translated page for every step in each locale, with the same command links', () => {
      assert.ok(pages.length >= 3, pages.join(', '));
      const links = (text: string) => [...text.matchAll(/\(command:[\w.]+\)/g)].map((m) => m[0]).sort();
      for (const locale of LOCALES) {
        for (const page of pages) {
          const translated = page.replace(/\.md$/, `.nls.${locale}.md`);
          const text = readFileSync(join(root, translated), 'utf8');
          const english = readFileSync(join(root, page), 'utf8');
          assert.notEqual(text.trim(), english.trim(), `${translated} is translated`);
          assert.deepEqual(links(text), links(english), `${translated} keeps the command links`);
        }
      }
    });
  });

  describe('no literal message in the extension', () => {
    it('shows every notification, button, status message and prompt through l10n.t', () => {
      assert.deepEqual(tsFiles('src/vscode').flatMap((file) => literalMessages(file)), []);
    });

    it("says every chat notice, error and history problem through l10n.t (the chat's own notice functions)", () => {
      const chatFiles = tsFiles('src/vscode').filter(isChatFile);
      assert.ok(chatFiles.some((f) => f.endsWith('chat-controller.ts')) && chatFiles.some((f) => f.endsWith('follow-ups.ts')), chatFiles.join(', '));
      assert.deepEqual(chatFiles.flatMap((file) => literalChatNotices(file)), []);
    });

    it('catches a literal chat notice, error, warning, problem and notice entry', () => {
      const sample = [
        "this.notice('Cancelled.');",
        'this.error(`OpenDev hit an internal error: ${m}`);',
        "this.warn(l10n.t('Fine.'));",
        "onProblem('The @ mentions could not be attached');",
        "entries.emit({ type: 'sessions', items: [], problem: 'Open a folder first.' });",
        "const n = { kind: 'notice', id, text: `Resumed session ${id}` };",
        "const u = { kind: 'user', id, text: 'what the user typed' };",
        'this.chat.notice(text, level);',
        "this.log.warn('Dropped an invalid message');",
      ].join('\n');
      assert.deepEqual(literalChatNotices('sample.ts', sample), ['sample.ts:1 notice', 'sample.ts:2 error', 'sample.ts:4 onProblem', 'sample.ts:5 problem', 'sample.ts:6 text']);
    });

    it('catches a literal message, a template, a literal button and a literal prompt', () => {
      const sample = [
        "vscode.window.showInformationMessage('OpenDev: done.');",
        'vscode.window.showWarningMessage(`OpenDev: ${x}`);',
        "vscode.window.showErrorMessage(vscode.l10n.t('Failed.'), 'Retry');",
        "vscode.window.showInputBox({ title: 'Key', value: v });",
        "vscode.window.showInformationMessage(vscode.l10n.t('Fine {0}.', x), vscode.l10n.t('Open'));",
        'vscode.window.showWarningMessage(text, { modal: true, detail }, trust);',
      ].join('\n');
      assert.deepEqual(literalMessages('sample.ts', sample), [
        'sample.ts:1 showInformationMessage',
        'sample.ts:2 showWarningMessage',
        'sample.ts:3 showErrorMessage',
        'sample.ts:4 showInputBox (title)',
      ]);
    });
  });
});
