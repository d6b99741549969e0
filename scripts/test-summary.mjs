// Prints what failed (file, test, first line of its message) and then vitest's totals as one plain
// last line ("N passed, N failed, N skipped"): CI shows only the tail of its output.
import { readFileSync, existsSync, statSync } from 'node:fs';
import { relative } from 'node:path';

// `npm test` runs vitest twice: every project but `timing`, then `timing` alone (its own report).
const file = 'test-results/vitest.json';
const timingFile = 'test-results/vitest-timing.json';
if (!existsSync(file)) {
  console.log('no vitest report: typecheck, lint or vitest itself stopped before any test ran');
  console.log('0 passed, 1 failed');
  process.exit(0);
}
// a timing report older than the main one is an earlier run's
const current = [file, timingFile].filter((f) => existsSync(f) && statSync(f).mtimeMs >= statSync(file).mtimeMs);
const reports = current.map((f) => JSON.parse(readFileSync(f, 'utf8')));
const sum = (pick) => reports.reduce((n, r) => n + (pick(r) ?? 0), 0);
const firstLine = (text) => String(text ?? '').split('\n').find((line) => line.trim() !== '')?.trim().slice(0, 300) ?? '';

for (const report of reports) {
  for (const result of report.testResults ?? []) {
    const where = relative(process.cwd(), result.name);
    const failed = (result.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed) console.log(`FAILED ${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    // a file that failed without a failed test: its set-up, a hook or an import broke
    if (result.status === 'failed' && failed.length === 0) console.log(`FAILED ${where} (the file itself): ${firstLine(result.message)}`);
  }
  // unhandled errors fail the run without failing a test
  if (report.success === false && report.numFailedTests === 0 && report.numFailedTestSuites === 0) {
    console.log('FAILED: vitest reported an unhandled error outside any test (see the log above)');
  }
}
// the timing run did not happen (the first run failed, or it was left out): one failure more
const missing = reports.length < 2 ? 1 : 0;
if (missing) console.log('FAILED: the timing project did not run (the first vitest run failed or stopped)');
const skipped = sum((r) => r.numPendingTests) + sum((r) => r.numTodoTests);
console.log(`${sum((r) => r.numPassedTests)} passed, ${sum((r) => r.numFailedTests) + missing} failed, ${skipped} skipped`);
