// Prints vitest's totals as one plain line ("N passed, N failed, N skipped").
import { readFileSync, existsSync, statSync } from 'node:fs';

// `npm test` runs vitest twice: every project but `timing`, then `timing` alone (its own report).
const file = 'test-results/vitest.json';
const timingFile = 'test-results/vitest-timing.json';
if (!existsSync(file)) {
  console.log('0 passed, 1 failed');
  process.exit(0);
}
// a timing report older than the main one is an earlier run's
const current = [file, timingFile].filter((f) => existsSync(f) && statSync(f).mtimeMs >= statSync(file).mtimeMs);
const reports = current.map((f) => JSON.parse(readFileSync(f, 'utf8')));
const sum = (pick) => reports.reduce((n, r) => n + (pick(r) ?? 0), 0);
// the timing run did not happen (the first run failed, or it was left out): one failure more
const missing = reports.length < 2 ? 1 : 0;
const skipped = sum((r) => r.numPendingTests) + sum((r) => r.numTodoTests);
console.log(`${sum((r) => r.numPassedTests)} passed, ${sum((r) => r.numFailedTests) + missing} failed, ${skipped} skipped`);
