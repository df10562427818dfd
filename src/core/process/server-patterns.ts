import { splitTopLevel } from '../shell/shell-reader';
import { isAssignment } from '../shell/shell-text';

/**
 * Stage 3 of run_command (appendix E): commands that start a server never end by themselves, so they
 * are promoted to background tasks. The paper's sixteen patterns, each matched at the start of a
 * command on the line (after `cd … &&`, `VAR=value` assignments and `npx`/`bundle exec`).
 */
export interface ServerPattern {
  name: string;
  pattern: RegExp;
}

const PY = String.raw`python(?:\d(?:\.\d+)?)?(?:\s+-[a-zA-Z]+)*`;

export const SERVER_PATTERNS: readonly ServerPattern[] = [
  { name: 'flask run', pattern: new RegExp(String.raw`^(?:${PY}\s+-m\s+)?flask\s+(?:\S+\s+)*?run\b`) },
  { name: 'python …app.py', pattern: new RegExp(String.raw`^${PY}\s+(?:\S+\/)?\w*app\.py\b`) },
  { name: 'manage.py runserver', pattern: new RegExp(String.raw`^(?:${PY}\s+)?(?:\S+\/)?manage\.py\s+runserver\b`) },
  { name: 'django runserver', pattern: /^django-admin(?:\.py)?\s+runserver\b/ },
  { name: 'uvicorn', pattern: new RegExp(String.raw`^(?:${PY}\s+-m\s+)?uvicorn\b`) },
  { name: 'gunicorn', pattern: new RegExp(String.raw`^(?:${PY}\s+-m\s+)?gunicorn\b`) },
  { name: 'python -m http.server', pattern: new RegExp(String.raw`^${PY}\s+-m\s+(?:http\.server|SimpleHTTPServer)\b`) },
  { name: 'npm (run) start|dev|serve', pattern: /^npm\s+(?:run(?:-script)?\s+)?(?:start|dev|serve)(?=$|[\s:])/ },
  { name: 'yarn/pnpm/bun (run) start|dev|serve', pattern: /^(?:yarn|pnpm|bun)\s+(?:run\s+)?(?:start|dev|serve)(?=$|[\s:])/ },
  { name: 'node …server', pattern: /^node\s+(?:-\S+\s+)*(?:\S+\/)?\w*server(?:\.[cm]?[jt]s)?(?=$|\s)/ },
  { name: 'nodemon', pattern: /^nodemon\b/ },
  { name: 'next dev|start', pattern: /^next\s+(?:dev|start)\b/ },
  { name: 'rails server', pattern: /^(?:bin\/)?rails\s+(?:server|s)\b/ },
  { name: 'php artisan serve', pattern: /^php\s+artisan\s+serve\b/ },
  { name: 'hugo server', pattern: /^hugo\s+(?:server|serve)\b/ },
  { name: 'jekyll serve', pattern: /^jekyll\s+(?:serve|server|s)\b/ },
];

/** The server pattern the command matches, if any. */
export function matchServerPattern(command: string): ServerPattern | undefined {
  for (const { start, end } of splitTopLevel(command)) {
    const piece = commandStart(command.slice(start, end));
    if (!piece) continue;
    const hit = SERVER_PATTERNS.find((p) => p.pattern.test(piece));
    if (hit) return hit;
  }
  return undefined;
}

/** The piece without leading assignments, `(`, `exec`, `npx`, `bundle exec`, `poetry run`, `uv run`… */
function commandStart(piece: string): string {
  let text = piece.trim().replace(/^[({]\s*/, '');
  for (;;) {
    const word = /^\S+/.exec(text)?.[0];
    if (!word) return text;
    if (isAssignment(word) || word === 'exec' || word === 'nohup' || word === 'npx' || word === 'env') {
      text = text.slice(word.length).trimStart();
      continue;
    }
    const prefix = /^(?:bundle\s+exec|poetry\s+run|uv\s+run|pipenv\s+run|pnpm\s+exec|yarn\s+exec|npm\s+exec(?:\s+--)?)\s+/.exec(text);
    if (prefix) {
      text = text.slice(prefix[0].length);
      continue;
    }
    return text;
  }
}
