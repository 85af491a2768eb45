// A tiny static file server for the page (no dependencies): `node scripts/serve.mjs [port]`
// serves score-wasm/www on http://127.0.0.1:<port>/ (8765 by default). The e2e test imports
// `startServer` and listens on a free port.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ts': 'text/plain; charset=utf-8',
};

export const WWW = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'www');

/** `headers` are added to every response (the e2e test serves the page under a CSP). */
export function startServer(root = WWW, port = 0, host = '127.0.0.1', headers = {}) {
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      let file = normalize(join(root, path));
      if (!file.startsWith(root)) throw Object.assign(new Error('outside root'), { status: 403 });
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { ...headers, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
      res.end(body);
    } catch (err) {
      res.writeHead(err.status ?? 404, { 'content-type': 'text/plain' });
      res.end(err.status === 403 ? 'forbidden' : 'not found');
    }
  });
  return new Promise((ok) => server.listen(port, host, () => ok(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await startServer(WWW, Number(process.argv[2] ?? 8765));
  console.log(`serving ${WWW} on http://127.0.0.1:${server.address().port}/`);
}
