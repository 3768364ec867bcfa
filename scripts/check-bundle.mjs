// The admin UI's bundle budget (issue 35, part 5; docs/admin-ui.md): the JavaScript that the
// first load of index.html fetches (its entry module and the modules it preloads) is at most
// 300 KB gzipped. Sections are their own chunks and are not counted: they load when opened.
import console from 'node:console';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import zlib from 'node:zlib';

const BUDGET_BYTES = 300 * 1024;
const dist = path.resolve(import.meta.dirname, '..', 'web', 'dist');
const indexFile = path.join(dist, 'index.html');
if (!fs.existsSync(indexFile)) {
  console.error('web/dist/index.html is missing: run npm run build first');
  process.exit(1);
}
const html = fs.readFileSync(indexFile, 'utf8');
const urls = [
  ...[...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]),
  ...[...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]),
];
if (urls.length === 0) {
  console.error('index.html names no module script: the check would measure nothing');
  process.exit(1);
}
let total = 0;
for (const url of new Set(urls)) {
  if (!url.startsWith('/admin/')) throw new Error(`unexpected script URL ${url}`);
  const file = path.join(dist, url.slice('/admin/'.length));
  const gzipped = zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
  total += gzipped;
  console.log(`  ${url}: ${(gzipped / 1024).toFixed(1)} KB gzipped`);
}
const verdict = total <= BUDGET_BYTES ? 'within' : 'OVER';
console.log(`Admin UI first load: ${(total / 1024).toFixed(1)} KB of gzipped JavaScript, ${verdict} the budget of ${BUDGET_BYTES / 1024} KB`);
if (total > BUDGET_BYTES) process.exit(1);
