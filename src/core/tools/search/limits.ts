/** The search tool's bounds (paper §2.4: at most 50 matches and 30,000 characters per result). */
export const MAX_RESULTS = 50;
export const MAX_OUTPUT_CHARS = 30_000;
export const DEFAULT_CONTEXT_LINES = 2;
export const MAX_CONTEXT_LINES = 10;
/** A whole search (ripgrep, the built-in walker or ast-grep) stops after this long. */
export const SEARCH_TIMEOUT_MS = 30_000;
/** Lines longer than this (minified code) are cut around the match. */
export const MAX_LINE_CHARS = 400;
/** Lines of an ast match's node text shown before "… (+N lines)". */
export const AST_MATCH_LINES = 3;
/** Files larger than this are skipped by the built-in search and by ast-grep (generated or data files). */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;
export const BINARY_SNIFF_BYTES = 8192;
