// Builds the console and prints the compressed bytes of what /login loads first (entry + its
// static imports + CSS + the /login route chunk and its own static imports), then each route chunk.
// Target (issue 2): /login first load <= 170 KB gzip of JS + CSS. Figures only: nothing fails on them.
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const dist = 'dist';
if (!process.argv.includes('--no-build')) execSync('npx vite build --logLevel warn', { stdio: 'inherit' });

const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const sizes = new Map();
function size(file) {
  if (!sizes.has(file)) {
    const buf = readFileSync(join(dist, file));
    sizes.set(file, {
      raw: buf.length,
      gzip: gzipSync(buf, { level: 9 }).length,
      brotli: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    });
  }
  return sizes.get(file);
}

/** The files a manifest entry pulls in synchronously: itself, its static imports, their CSS. */
function closure(key, seen = new Set()) {
  const entry = manifest[key];
  if (!entry || seen.has(entry.file)) return seen;
  seen.add(entry.file);
  for (const css of entry.css ?? []) seen.add(css);
  for (const imp of entry.imports ?? []) closure(imp, seen);
  return seen;
}

const total = (files) =>
  [...files].reduce(
    (acc, f) => {
      const s = size(f);
      return { raw: acc.raw + s.raw, gzip: acc.gzip + s.gzip, brotli: acc.brotli + s.brotli };
    },
    { raw: 0, gzip: 0, brotli: 0 },
  );
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
const row = (label, t) => `${label.padEnd(48)} ${kb(t.raw).padStart(10)} ${kb(t.gzip).padStart(10)} ${kb(t.brotli).padStart(10)}`;

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const entryFiles = closure(entryKey);
const routeKeys = Object.keys(manifest).filter((k) => manifest[k].isDynamicEntry && k.startsWith('src/views/'));
const loginKey = routeKeys.find((k) => /auth\/LoginPage\.tsx$/.test(k));

console.log(`${'what'.padEnd(48)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)} ${'brotli'.padStart(10)}`);
console.log(row('entry (shell, shared code, CSS)', total(entryFiles)));
if (loginKey) {
  const loginFiles = closure(loginKey, new Set(entryFiles));
  const first = total(loginFiles);
  console.log(row('/login first load (entry + login chunk)', first));
  const target = 170_000;
  console.log(
    `/login first load: ${kb(first.gzip)} gzip of JS+CSS, target <= ${kb(target)} ` +
      `(${((first.gzip / target) * 100).toFixed(0)}% of target; one-api default console ~400 KB, ratio ${(first.gzip / 400_000).toFixed(2)})`,
  );
} else {
  console.log('/login route chunk not found in the manifest');
}
console.log('\nroute chunks (own code beyond the entry):');
for (const key of routeKeys.sort()) {
  const own = new Set([...closure(key)].filter((f) => !entryFiles.has(f)));
  console.log(row(`  ${key.replace('src/views/', '')}`, total(own)));
}
