// @ts-check
/**
 * A token counting thread (see tokenCountPool.ts, which starts and feeds it): it counts the texts
 * of one job at a time and answers `{ id, tokens }` (the sum of their counts) or `{ id, error }`.
 * Plain JavaScript, as settlementWorker.mjs, so that it starts without a TypeScript loader.
 */
import { parentPort } from 'node:worker_threads';
import { countBounded } from './tokenCore.mjs';

/** @typedef {import('./tokenCountPool').CountJob} Job */

if (parentPort === null) throw new Error('tokenCountWorker.mjs runs as a worker thread');
const port = parentPort;
port.on('message', (/** @type {Job} */ job) => {
  try {
    let tokens = 0;
    for (const text of job.texts) tokens += countBounded(text, job.o200k);
    port.postMessage({ id: job.id, tokens });
  } catch (error) {
    port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
