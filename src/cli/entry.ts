// The `opendev` command (dist/cli.js): --version and --help are answered here, before the agent's
// bundle loads; `acp` is src/acp (dist/acp.js); everything else is main.ts (dist/cli-main.js, loaded only now, through the code cache).
import { join, resolve } from 'node:path';
import { opendevPaths, resolveOpendevHome } from '../core/config/opendev-home';
import { CODE_CACHE_ENV, requireWithCodeCache } from './code-cache';
import { quickAnswer } from './quick-answer';

/** The bundles beside this one that load through the code cache (set by the build; none in the tests' build). */
declare const OPENDEV_CODE_CACHED: string[] | undefined;

const argv = process.argv.slice(2);
const answer = argv[0] === 'acp' ? undefined : quickAnswer(argv);
// `opendev acp` (an editor's agent over stdio) is a bundle of its own: dist/acp.js.
// eslint-disable-next-line @typescript-eslint/no-require-imports
if (argv[0] === 'acp') require('../acp/acp-entry');
else if (answer !== undefined) process.stdout.write(`${answer}\n`);
// eslint-disable-next-line @typescript-eslint/no-require-imports
else if (process.env[CODE_CACHE_ENV] === '0') require('./main');
else {
  const alsoCached = new Set((typeof OPENDEV_CODE_CACHED === 'undefined' ? [] : OPENDEV_CODE_CACHED).map((bundle) => resolve(__dirname, bundle)));
  requireWithCodeCache(require.resolve('./main'), { cacheDir: join(opendevPaths(resolveOpendevHome()).cacheDir, 'code'), alsoCached });
}
