import { fromPromise, type PromiseActorLogic } from 'xstate';
import { refusedError } from '../../../domain/apiError';

/*
 * Copying to the clipboard: the async Clipboard API, else a hidden textarea. The browser globals
 * are a parameter that defaults to globalThis, so tests pass fakes.
 */

export interface ClipboardEnv {
  readonly navigator?: { readonly clipboard?: { readonly writeText: (text: string) => Promise<void> } };
  readonly document?: Pick<Document, 'createElement' | 'body' | 'execCommand'>;
}

const defaultClipboardEnv = (): ClipboardEnv => ({
  navigator: (globalThis as { navigator?: ClipboardEnv['navigator'] }).navigator,
  document: (globalThis as { document?: ClipboardEnv['document'] }).document,
});

/**
 * Copies `text`: the async Clipboard API, else a hidden textarea and execCommand('copy').
 * Rejects with a `Refused` error (a catalogue message, so it is translated) when both fail; the
 * caller shows spec §8's "cannot copy" warning.
 */
export async function copyText(text: string, env: ClipboardEnv = defaultClipboardEnv()): Promise<void> {
  const clipboard = env.navigator?.clipboard;
  if (clipboard !== undefined) {
    try {
      await clipboard.writeText(text);
      return;
    } catch {
      // Denied or unavailable (insecure context): try the fallback.
    }
  }
  if (!copyWithTextarea(text, env.document)) throw refusedError('clipboard', { key: 'error.clipboard' });
}

function copyWithTextarea(text: string, doc: ClipboardEnv['document']): boolean {
  if (doc === undefined) return false;
  let area: HTMLTextAreaElement | undefined;
  try {
    area = doc.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.top = '0';
    area.style.left = '0';
    area.style.opacity = '0';
    doc.body.appendChild(area);
    area.focus();
    area.select();
    return doc.execCommand('copy');
  } catch {
    return false;
  } finally {
    area?.remove();
  }
}

/** Promise actor logic around `copyText`, input `{ text }`. */
export const copyTextActor: PromiseActorLogic<void, { readonly text: string }> = fromPromise(({ input }) =>
  copyText(input.text),
);
