// A registry of a few tarballs on 127.0.0.1, for what downloads packages on first use: the package
// check (runtime-probe.mjs) and the tests point the download at it instead of the npm registry.
import { createServer } from 'node:http';

/**
 * Serves `tarballs` (`{ '<name>/-/<base>-<version>.tgz': Buffer }`, the registry's own paths);
 * anything else is a 404. `requests` lists the paths asked for. `port`: 0 picks a free one.
 */
export async function serveTarballs(tarballs, { port = 0 } = {}) {
  const requests = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname).replace(/^\/+/, '');
    requests.push(path);
    const body = tarballs[path];
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
