// Prints vitest's totals as one plain line ("N passed, N failed, N skipped").
import { readFileSync, existsSync } from 'node:fs';

const file = 'test-results/vitest.json';
if (!existsSync(file)) {
  console.log('0 passed, 1 failed');
  process.exit(0);
}
const r = JSON.parse(readFileSync(file, 'utf8'));
const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
