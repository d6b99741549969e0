import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * A small pool of token counting threads (tokenCountWorker.mjs). The relay counts a prompt or a
 * completion of more than `syncCountChars` characters here, so that no request's counting runs on
 * the event loop that answers everyone else (random text counts at about 0.7 µs a character:
 * a 32 MB body would have held it for twenty seconds). Threads start on the first large count
 * and never keep the process alive. Jobs wait their turn first in, first out; the characters
 * waiting are bounded (`maxQueuedChars`), past which a count is refused at once.
 */

/** One count: the sum of the tokens of `texts` with o200k_base (else cl100k_base). */
export interface CountJob {
  readonly id: number;
  readonly texts: readonly string[];
  readonly o200k: boolean;
}

type FromWorker = { readonly id: number; readonly tokens: number } | { readonly id: number; readonly error: string };

/** The count was refused because too much text is already waiting. */
export class CountingBusy extends Error {}

/** Texts of at most this many characters in all are counted on the calling thread (at most about 10 ms). */
export const syncCountChars = 16_384;

/** Characters that may wait for a counting thread before new counts are refused. */
export const maxQueuedChars = 64 * 1024 * 1024;

/** Counting threads: one per core beyond the first, at least one, at most four. */
const poolSize = Math.max(1, Math.min(4, availableParallelism() - 1));

interface Pending {
  readonly job: CountJob;
  readonly chars: number;
  readonly resolve: (tokens: number) => void;
  readonly reject: (error: Error) => void;
}

interface Thread {
  readonly worker: Worker;
  current: Pending | null;
}

const threads: Thread[] = [];
const queue: Pending[] = [];
let queuedChars = 0;
let nextId = 1;

function startThread(): Thread {
  const worker = new Worker(new URL('./tokenCountWorker.mjs', import.meta.url));
  worker.unref();
  const thread: Thread = { worker, current: null };
  const fail = (reason: string): void => {
    const index = threads.indexOf(thread);
    if (index >= 0) threads.splice(index, 1);
    const pending = thread.current;
    thread.current = null;
    pending?.reject(new Error(`token counting thread stopped: ${reason}`));
    dispatch();
  };
  worker.on('message', (message: FromWorker) => {
    const pending = thread.current;
    thread.current = null;
    if (pending !== null && pending.job.id === message.id) {
      if ('tokens' in message) pending.resolve(message.tokens);
      else pending.reject(new Error(message.error));
    }
    dispatch();
  });
  worker.on('error', (error) => {
    console.error('[relay] token counting thread failed:', error);
    fail(error.message);
  });
  worker.on('exit', (code) => fail(`exit code ${code}`));
  threads.push(thread);
  return thread;
}

/** Hands waiting jobs to idle threads, starting threads up to `poolSize`. */
function dispatch(): void {
  while (queue.length > 0) {
    let idle = threads.find((thread) => thread.current === null);
    if (idle === undefined && threads.length < poolSize) idle = startThread();
    if (idle === undefined) return;
    const next = queue.shift() as Pending;
    queuedChars -= next.chars;
    idle.current = next;
    idle.worker.postMessage(next.job);
  }
}

/** Counts `texts` on a counting thread; rejects with `CountingBusy` when too much is waiting. */
export function countOnThread(texts: readonly string[], o200k: boolean): Promise<number> {
  const chars = texts.reduce((sum, text) => sum + text.length, 0);
  if (queuedChars + chars > maxQueuedChars) return Promise.reject(new CountingBusy('too much text is waiting to be counted; try again later'));
  return new Promise((resolve, reject) => {
    const job: CountJob = { id: nextId, texts, o200k };
    nextId += 1;
    queue.push({ job, chars, resolve, reject });
    queuedChars += chars;
    dispatch();
  });
}
