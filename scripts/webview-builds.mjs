// The chat view's two scripts, as esbuild builds them (esbuild.config.mjs; the webview's size test
// builds the same): classic scripts for the browser, which the view's CSP admits by nonce.
//   dist/webview.js            the view (webview/main.ts)
//   dist/webview-highlight.js  highlight.js and its grammars (webview/highlighter.ts), which the view
//                              loads with its first code block (webview/code-highlight.ts)
import { join } from 'node:path';

export function webviewBuilds({ production, outdir = 'dist' }) {
  const browser = {
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
  };
  return [
    { ...browser, entryPoints: ['webview/main.ts'], outfile: join(outdir, 'webview.js') },
    { ...browser, entryPoints: ['webview/highlighter.ts'], outfile: join(outdir, 'webview-highlight.js') },
  ];
}
