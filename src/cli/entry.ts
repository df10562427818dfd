// The `opendev` command (dist/cli.js): --version and --help are answered here, before the agent's
// bundle loads; everything else is main.ts (dist/cli-main.js, loaded only now).
import { quickAnswer } from './quick-answer';

const answer = quickAnswer(process.argv.slice(2));
if (answer !== undefined) process.stdout.write(`${answer}\n`);
// eslint-disable-next-line @typescript-eslint/no-require-imports
else require('./main');
