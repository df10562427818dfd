import * as assert from 'node:assert/strict';
import { prepareCommand } from '../../../../src/core/process/command-prep';
import { matchServerPattern, SERVER_PATTERNS } from '../../../../src/core/process/server-patterns';

describe('command preparation (run_command stages 2–3)', () => {
  it('answers known package-manager prompts with `yes |`, only where they prompt', () => {
    assert.equal(prepareCommand('apt-get install curl').command, 'yes | apt-get install curl');
    assert.equal(prepareCommand('apt-get update && apt-get install -q curl').command, 'apt-get update && yes | apt-get install -q curl');
    assert.equal(prepareCommand('DEBIAN_FRONTEND=x apt install git').command, 'yes | DEBIAN_FRONTEND=x apt install git');
    assert.equal(prepareCommand('pip uninstall requests').command, 'yes | pip uninstall requests');
    assert.equal(prepareCommand('conda create -n env python=3.11').command, 'yes | conda create -n env python=3.11');
    assert.match(prepareCommand('apt-get install curl').notes[0]!, /yes \| apt-get install curl/);
  });

  it('leaves commands alone that already answer or never ask', () => {
    for (const command of ['apt-get install -y curl', 'apt-get -qq install curl', 'dnf install --assumeyes gcc', 'pip uninstall -y requests', 'pip install requests', 'npm install', 'yes | apt-get install curl', 'echo apt-get install x', 'apt-get update']) {
      const prepared = prepareCommand(command);
      assert.equal(prepared.command, command, command);
      assert.deepEqual(prepared.notes, []);
    }
  });

  it('sets a non-interactive environment, with PYTHONUNBUFFERED=1 and without CI', () => {
    const { env } = prepareCommand('python3 script.py');
    assert.equal(env.PYTHONUNBUFFERED, '1');
    assert.equal(env.GIT_TERMINAL_PROMPT, '0');
    assert.equal(env.CI, undefined);
  });

  it('has the sixteen server patterns of the paper', () => {
    assert.equal(SERVER_PATTERNS.length, 16);
  });

  const servers = [
    'flask run', 'flask --app hello run --port 5001', 'python -m flask run', 'python app.py', 'python3 src/my_app.py --debug',
    'python manage.py runserver', './manage.py runserver 0.0.0.0:8000', 'django-admin runserver', 'uvicorn main:app --reload',
    'python -m uvicorn main:app', 'gunicorn app:app -w 4', 'python3 -m http.server 8000', 'npm start', 'npm run dev', 'npm run serve',
    'yarn dev', 'pnpm run start', 'node server.js', 'node dist/server.js', 'nodemon index.js', 'npx next dev', 'next start',
    'rails server', 'bin/rails s', 'bundle exec rails server', 'php artisan serve', 'hugo server -D', 'jekyll serve', 'bundle exec jekyll serve',
    'cd web && npm run dev', 'PORT=4000 npm start',
  ];
  for (const command of servers) {
    it(`puts ${JSON.stringify(command)} in the background`, () => {
      assert.ok(matchServerPattern(command), command);
      assert.match(prepareCommand(command).promotedBy ?? '', /starts a server/);
    });
  }

  const notServers = ['npm test', 'npm run build', 'npm install', 'python script.py', 'python -m pytest', 'node index.js', 'next build', 'rails db:migrate', 'hugo', 'echo flask run', 'grep -r "npm start" .'];
  for (const command of notServers) {
    it(`keeps ${JSON.stringify(command)} in the foreground`, () => {
      assert.equal(prepareCommand(command).promotedBy, undefined);
    });
  }

  it('treats a line ending in a lone `&` as a background task and drops the `&`', () => {
    const prepared = prepareCommand('sleep 30 &');
    assert.equal(prepared.command, 'sleep 30');
    assert.match(prepared.promotedBy!, /ends with `&`/);
    assert.equal(prepareCommand('make && make test').promotedBy, undefined);
    assert.equal(prepareCommand('ls 2>&1').promotedBy, undefined);
  });
});
