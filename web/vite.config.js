// Vite builds the app into dist/ (hashed files under dist/assets/), which the server serves
// (server/src/web.rs). `npm run dev` serves it with hot reload and sends /api to a running
// server (API_URL, default http://127.0.0.1:8080).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

const wasmPkg = fileURLToPath(new URL('../score-wasm/pkg-web/', import.meta.url));
const docsPkg = fileURLToPath(new URL('../score-docs/wasm/pkg-web/', import.meta.url));
// The profile schema (the calculator's fields) and the report's words shared with score-wasm's page.
const shared = [fileURLToPath(new URL('../fixtures/', import.meta.url)), fileURLToPath(new URL('../score-wasm/www/labels.js', import.meta.url))];

export default defineConfig({
  plugins: [preact()],
  resolve: {
    // score-wasm's browser package (built by score-wasm/scripts/build.sh); its loader finds
    // the .wasm with `new URL(..., import.meta.url)`, which Vite copies into dist/assets.
    // score-docs' (score-docs/wasm/build.sh), imported only when a buyer drops a payroll
    // receipt, so its module is a chunk of its own.
    alias: { 'score-wasm': `${wasmPkg}score_wasm.js`, 'score-docs-wasm': `${docsPkg}score_docs_wasm.js` },
  },
  build: {
    target: 'es2022',
    assetsInlineLimit: 0,
    // No inline <script>: the module preload polyfill would be one (the page runs under a
    // CSP without 'unsafe-inline'); every browser the app supports has modulepreload.
    modulePreload: { polyfill: false },
  },
  server: {
    fs: { allow: ['.', wasmPkg, docsPkg, ...shared] },
    proxy: { '/api': process.env.API_URL ?? 'http://127.0.0.1:8080' },
  },
});
