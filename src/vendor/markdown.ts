// marked's lexer (CommonMark + GFM): dist/vendor/markdown.js, loaded when a terminal first draws an
// answer in colour (src/terminal-ui/markdown-ansi.ts; see scripts/lazy-bundles.mjs; reach it only
// through markdownLexer()). The chat view bundles marked itself.
export { Lexer } from 'marked';
export type { Token, Tokens } from 'marked';
