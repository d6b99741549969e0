import { fromPromise, type PromiseActorLogic } from 'xstate';
import { refusedError } from '../../../domain/apiError';

/*
 * Saving a file from the page (a temporary link with `download`). The browser globals are a
 * parameter that defaults to globalThis, so tests pass fakes.
 */

export interface DownloadEnv {
  readonly document?: Pick<Document, 'createElement' | 'body'>;
  readonly url?: Pick<typeof URL, 'createObjectURL' | 'revokeObjectURL'>;
}

const defaultDownloadEnv = (): DownloadEnv => ({
  document: (globalThis as { document?: DownloadEnv['document'] }).document,
  url: (globalThis as { URL?: DownloadEnv['url'] }).URL,
});

/** Saves `text` as a plain-text file called `name` (a temporary link with `download`). Throws a `Refused` error (translated) without a DOM. */
export function downloadText(name: string, text: string, env: DownloadEnv = defaultDownloadEnv()): void {
  downloadBlob(name, new Blob([text], { type: 'text/plain;charset=utf-8' }), env);
}

/** Saves `blob` as a file called `name` (a temporary link with `download`). Throws a `Refused` error (translated) without a DOM. */
export function downloadBlob(name: string, blob: Blob, env: DownloadEnv = defaultDownloadEnv()): void {
  const { document: doc, url } = env;
  if (doc === undefined || url === undefined) throw refusedError('download', { key: 'error.download' });
  const href = url.createObjectURL(blob);
  const link = doc.createElement('a');
  link.href = href;
  link.download = name;
  link.style.display = 'none';
  doc.body.appendChild(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => url.revokeObjectURL(href), 1000);
  }
}

/** Promise actor logic around `downloadText`, input `{ name, text }`. */
export const downloadTextActor: PromiseActorLogic<void, { readonly name: string; readonly text: string }> = fromPromise(
  ({ input }) => {
    downloadText(input.name, input.text);
    return Promise.resolve();
  },
);
