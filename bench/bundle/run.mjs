// Builds the console and prints the compressed bytes of what /login loads first (entry + its
// static imports + CSS + the /login route chunk and its own static imports), then each route chunk.
// Target (issue 2): /login first load <= 170 KB gzip of JS + CSS. The figures here print only;
// tests/unit/bundle-budget.test.ts fails when a route's first load grows past budget.json.
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { budgetFile, budgetFor, measureBuild } from './sizes.mjs';

if (!process.argv.includes('--no-build')) execSync('npx vite build --logLevel warn', { stdio: 'inherit' });

const { entry, routes } = measureBuild('dist');
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
const row = (label, t) => `${label.padEnd(48)} ${kb(t.raw).padStart(10)} ${kb(t.gzip).padStart(10)} ${kb(t.brotli).padStart(10)}`;

console.log(`${'what'.padEnd(48)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)} ${'brotli'.padStart(10)}`);
console.log(row('entry (shell, shared code, CSS)', entry));
const login = routes.find((r) => r.route === 'auth/LoginPage.tsx');
if (login) {
  console.log(row('/login first load (entry + login chunk)', login.firstLoad));
  const target = 170_000;
  console.log(
    `/login first load: ${kb(login.firstLoad.gzip)} gzip of JS+CSS, target <= ${kb(target)} ` +
      `(${((login.firstLoad.gzip / target) * 100).toFixed(0)}% of target; one-api default console ~400 KB, ratio ${(login.firstLoad.gzip / 400_000).toFixed(2)})`,
  );
} else {
  console.log('/login route chunk not found in the manifest');
}
console.log('\nroute chunks (own code beyond the entry):');
for (const r of routes) console.log(row(`  ${r.route}`, r.own));
console.log('\nfirst load per route (entry + route chunk), gzip bytes:');
for (const r of routes) console.log(`  ${r.route.padEnd(46)} ${String(r.firstLoad.gzip).padStart(10)}`);

// `--write-budget`: today's first loads plus the margin become the budget the test run checks.
if (process.argv.includes('--write-budget')) {
  const budget = Object.fromEntries(routes.map((r) => [r.route, budgetFor(r.firstLoad.gzip)]));
  writeFileSync(budgetFile, `${JSON.stringify(budget, null, 2)}\n`);
  console.log(`\nwrote ${budgetFile}`);
}
