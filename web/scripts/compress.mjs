// Writes a .br and a .gz beside every compressible file of the build, so the server sends
// them as they are (tower-http ServeDir/ServeFile "precompressed") instead of compressing per
// request. Node's own zlib: no extra dependency.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|txt|wasm)$/;
const dir = process.argv[2] ?? 'dist';
let before = 0;
let after = 0;

function walk(path) {
  for (const name of readdirSync(path)) {
    const file = join(path, name);
    if (statSync(file).isDirectory()) walk(file);
    else if (COMPRESSIBLE.test(name)) compress(file);
  }
}

function compress(file) {
  const data = readFileSync(file);
  const br = brotliCompressSync(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
  });
  const gz = gzipSync(data, { level: 9 });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gz);
  before += data.length;
  after += br.length;
}

walk(dir);
console.log(`compressed ${dir}: ${before} bytes -> ${after} bytes brotli`);
