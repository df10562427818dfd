// The command sandbox's library (ESM, so reached with import()): dist/vendor/sandbox-runtime.js, a few
// lines that stay outside the bundles the CLI loads through its code cache (src/cli/code-cache.ts),
// where Node 20 has no import() (see scripts/lazy-bundles.mjs; reach it only through sandboxRuntimeLibrary()).
export const importSandboxRuntime = () => import('@anthropic-ai/sandbox-runtime');
