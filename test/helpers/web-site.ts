// A small real web site on 127.0.0.1 for the web tools' tests: a static article, a page that
// JavaScript builds, a linked site to crawl, files, errors, a slow and a huge page, and a search
// endpoint answering with a saved DuckDuckGo results page.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const FIXTURES = join(__dirname, '../../../test/fixtures/web');

export const ARTICLE = `<!doctype html>
<html><head><title>Parsing configs safely</title>
<style>body { font: 16px serif }</style>
<script>window.analytics = { track() {} };</script></head>
<body>
<header><a href="/">Site home</a></header>
<nav><a href="/docs">Docs</a> <a href="/blog">Blog</a> <a href="/pricing">Pricing</a></nav>
<main>
<article>
<h1>Parsing configs safely</h1>
<p>Read the <a href="/guide/zod?lang=en">validation guide</a> first; it explains why every file on disk is untrusted input that must be checked before use.</p>
<h2>An example</h2>
<pre><code class="language-ts">const config = Schema.parse(JSON.parse(text));
if (config.retries &gt; 3) warn();
</code></pre>
<h2>Options</h2>
<table>
<thead><tr><th>Option</th><th>Default</th></tr></thead>
<tbody><tr><td>retries</td><td>3</td></tr><tr><td>timeout</td><td>30 s</td></tr></tbody>
</table>
<p>See also <a href="https://example.org/spec">the spec</a>.</p>
</article>
</main>
<aside>Subscribe to our newsletter!</aside>
<footer>© 2026 Example Corp · <a href="/privacy">Privacy</a></footer>
<script>document.querySelectorAll('a').forEach(() => {});</script>
</body></html>`;

/** Nothing to read without JavaScript: the script writes the content. */
export const SCRIPT_BUILT = `<!doctype html>
<html><head><title>Loading…</title></head>
<body><div id="root"></div>
<noscript>You need to enable JavaScript to run this app.</noscript>
<script>
  document.title = 'Rendered dashboard';
  const root = document.getElementById('root');
  root.innerHTML = '<h1>Quarterly numbers</h1><p>' + 'Revenue grew in every region this quarter. '.repeat(8) + '</p><a href="/site/a">Details</a>';
</script>
</body></html>`;

/** The crawl site: / → a, b, c (and another host, and a file); a → a1, a2; a1 → a1x; b → b1 and a missing page; c → c1. */
function sitePage(path: string, otherHost: string): { title: string; links: Array<[string, string]> } | undefined {
  const pages: Record<string, Array<[string, string]>> = {
    '/site/': [['/site/a', 'Alpha'], ['/site/b', 'Beta'], ['/site/c', 'Database tuning guide'], [`${otherHost}/other`, 'Elsewhere'], ['/site/archive.zip', 'Download everything']],
    '/site/a': [['/site/a1', 'Alpha one'], ['/site/a2', 'Alpha two'], ['/site/', 'Home']],
    '/site/a1': [['/site/a1x', 'Deeper']],
    '/site/a2': [],
    '/site/a1x': [],
    '/site/b': [['/site/b1', 'Beta one'], ['/missing', 'Old page']],
    '/site/b1': [],
    '/site/c': [['/site/c1', 'Tuning details']],
    '/site/c1': [],
    '/big/': [['/huge', 'A huge page'], ['/article', 'An article']],
    '/guarded/': [['/to-metadata', 'Credentials'], ['/article', 'An article']],
  };
  const links = pages[path];
  return links ? { title: `Page ${path}`, links } : undefined;
}

export interface WebSite {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The same server under another host name (`http://localhost:<port>`): another site to a crawl. */
  otherOrigin: string;
  url(path: string): string;
  /** Every request's path and query, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startWebSite(): Promise<WebSite> {
  const requests: string[] = [];
  let origin = '';
  let otherOrigin = '';
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    route(req, res, otherOrigin);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  otherOrigin = `http://localhost:${port}`;
  return {
    origin,
    otherOrigin,
    url: (path) => `${origin}${path}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function route(req: IncomingMessage, res: ServerResponse, otherHost: string): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const html = (body: string, status = 200) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
  switch (url.pathname) {
    case '/article':
      return html(ARTICLE);
    case '/app':
      return html(SCRIPT_BUILT);
    case '/moved':
      res.writeHead(302, { location: '/article' });
      return void res.end();
    case '/to-metadata':
      // What a hostile page does to reach a cloud's credentials: a redirect to the metadata address.
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' });
      return void res.end();
    case '/to-alias': {
      // The same through a name (tests map it to a link-local address in their lookup).
      res.writeHead(302, { location: `http://metadata-alias.test:${req.socket.localPort}/secret` });
      return void res.end();
    }
    case '/framed-metadata':
      return html('<html><body><h1>Innocent page</h1><iframe src="/to-metadata" width="600" height="300"></iframe></body></html>');
    case '/scripted-metadata':
      return html('<html><body><div id="root"></div><script>location.href = "http://169.254.169.254/latest/meta-data/";</script></body></html>');
    case '/notes.txt':
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return void res.end('plain notes\nline two\n');
    case '/download.bin': {
      const bytes = Buffer.alloc(150_000, 7);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) });
      return void res.end(bytes);
    }
    case '/untyped': {
      res.writeHead(200);
      return void res.end(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3]));
    }
    case '/paper.pdf':
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '2048' });
      return void res.end(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2039, 32)]));
    case '/missing':
      return html('<h1>Not found</h1>', 404);
    case '/broken':
      return html('<h1>Internal error</h1>', 500);
    case '/slow':
      // Never answers within a test's short deadline; the server's close ends it.
      return void setTimeout(() => html('<p>late</p>'), 20_000).unref();
    case '/huge':
      return html(`<html><body><main>${Array.from({ length: 3000 }, (_, i) => `<p>Paragraph ${i}: ${'lorem ipsum dolor sit amet '.repeat(3)}</p>`).join('\n')}</main></body></html>`);
    case '/tall':
      return html('<html><body style="margin:0"><div style="height:3000px;background:linear-gradient(#f00,#00f)">Tall page</div></body></html>');
    case '/html/': {
      const q = url.searchParams.get('q') ?? '';
      if (q.includes('bot-check')) {
        res.writeHead(202, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end(readFileSync(join(FIXTURES, 'duckduckgo-bot-check.html')));
      }
      if (q.includes('nothing-at-all')) return html('<html><body><div class="no-results">No results.</div></body></html>');
      return html(readFileSync(join(FIXTURES, 'duckduckgo-results.html'), 'utf8'));
    }
    case '/searx/search': {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ query: url.searchParams.get('q'), results: [{ url: 'https://docs.python.org/3/library/json.html', title: 'json — JSON encoder and decoder', content: 'Python json module.', engine: 'duckduckgo' }, { url: 'https://realpython.com/python-json/', title: 'Working With JSON Data in Python', content: 'A tutorial.' }] }));
    }
    default: {
      const page = sitePage(url.pathname, otherHost);
      if (page) return html(`<html><head><title>${page.title}</title></head><body><h1>${page.title}</h1><p>${'Some text about this page. '.repeat(12)}</p><ul>${page.links.map(([href, text]) => `<li><a href="${href}">${text}</a></li>`).join('')}</ul></body></html>`);
      if (url.pathname === '/other') return html(`<html><head><title>Other site</title></head><body><p>${'Another site entirely. '.repeat(12)}</p></body></html>`);
      return html('<h1>Not found</h1>', 404);
    }
  }
}
