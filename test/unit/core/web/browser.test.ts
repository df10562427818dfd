import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserSession, BrowserUnavailableError, locateChromium } from '../../../../src/core/web/browser';
import { until } from '../../../helpers/wait';

describe('the web tools’ browser', function () {
  this.timeout(60_000);
  const env = { ...process.env };
  delete env.OPENDEV_CHROMIUM;

  it('finds the system Chromium; OPENDEV_CHROMIUM, then the chromium_path setting, win when set', () => {
    assert.deepEqual(locateChromium({ env, platform: 'linux' }), { found: true, path: '/usr/bin/chromium' });
    assert.deepEqual(locateChromium({ env: { ...env, OPENDEV_CHROMIUM: '/usr/bin/chromium' }, setting: '/nope' }), { found: true, path: '/usr/bin/chromium' });
    const missing = locateChromium({ env, setting: '/opt/none/chrome' });
    assert.equal(missing.found, false);
    assert.match(!missing.found ? missing.reason : '', /The chromium_path setting names \/opt\/none\/chrome, which does not exist/);
  });

  it('says where it looked and how to get a browser when none is installed', () => {
    const emptyCache = mkdtempSync(join(tmpdir(), 'opendev-pw-'));
    const r = locateChromium({ env: { PLAYWRIGHT_BROWSERS_PATH: emptyCache, PROGRAMFILES: 'C:\\Nowhere' }, platform: 'win32' });
    assert.equal(r.found, false);
    const reason = !r.found ? r.reason : '';
    assert.match(reason, /No Chromium or Chrome was found \(looked in: C:\\Nowhere\\Google\\Chrome\\Application\\chrome\.exe/);
    assert.match(reason, /install one .*or set OPENDEV_CHROMIUM \(or `chromium_path` in your user settings.json\)/);
  });

  it('starts the browser on first use only, shares it, and closes it when idle and on dispose', async () => {
    const session = new BrowserSession({ search: () => ({ env }), idleMs: 300 });
    assert.equal(session.running, false, 'nothing starts before it is needed');
    const titles = await Promise.all([1, 2].map((n) => session.withPage(async (page) => {
      await page.setContent(`<title>page ${n}</title>`);
      return page.title();
    })));
    assert.deepEqual(titles, ['page 1', 'page 2']);
    assert.equal(session.running, true);
    await until(() => !session.running, 'the browser to close after the idle time');
    await session.withPage((page) => page.setContent('<p>again</p>'));
    assert.equal(session.running, true, 'started again when needed');
    await session.dispose();
    assert.equal(session.running, false);
    await assert.rejects(session.withPage(async () => undefined), /The session has ended/);
  });

  it('a browser that will not start is reported with how to get one that does', async () => {
    const session = new BrowserSession({ search: () => ({ env: { ...env, OPENDEV_CHROMIUM: '/bin/false' } }) });
    await assert.rejects(session.withPage(async () => undefined), (err: unknown) => err instanceof BrowserUnavailableError && /The browser at \/bin\/false did not start/.test(err.message));
    await session.dispose();
  });
});
