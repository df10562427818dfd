import { childProcess } from '../core/lazy-builtins';
import { childEnv } from '../core/process/child-env';

/** How long an opener may run before it counts as started (xdg-open may stay until the browser exits). */
const SETTLE_MS = 2_000;

/**
 * The platform's own opener (`xdg-open`, macOS `open`, Windows' URL handler), started detached
 * with the URL as one argument, never through a shell (a URL's `&` or `;` stays a character).
 * Resolves true when the opener exits cleanly or is still running after two seconds; false when
 * it is missing or fails.
 */
export function systemOpener(options: { platform?: NodeJS.Platform; env?: NodeJS.ProcessEnv } = {}): (url: string) => Promise<boolean> {
  const platform = options.platform ?? process.platform;
  // `start` is a cmd.exe builtin, which would parse the URL as shell text; rundll32 takes it as it is.
  const [command, ...fixed] = platform === 'darwin' ? ['open'] : platform === 'win32' ? ['rundll32.exe', 'url.dll,FileProtocolHandler'] : ['xdg-open'];
  return (url) =>
    new Promise((resolve) => {
      let settled = false;
      const settle = (ok: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(ok);
      };
      const child = childProcess().spawn(command!, [...fixed, url], { detached: true, stdio: 'ignore', env: childEnv({}, options.env), shell: false, windowsHide: true });
      const timer = setTimeout(() => {
        child.unref();
        settle(true);
      }, SETTLE_MS);
      child.on('error', () => settle(false));
      child.on('exit', (code) => settle(code === 0));
    });
}
