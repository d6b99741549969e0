import * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import { fromCallback, fromPromise, type CallbackActorLogic, type EventObject, type PromiseActorLogic } from 'xstate';
import { ChannelTypeModels } from '../../domain/channel';
import { Status } from '../../domain/status';
import { User } from '../../domain/user';

/*
 * Browser side effects for the composition root: localStorage (contract §5.2), clipboard,
 * window.open, and the session watcher. Every browser global is a parameter that defaults to
 * globalThis, so tests pass fakes; nothing here throws on malformed stored data.
 */

// ---------------------------------------------------------------------------------------------
// localStorage

/** The part of the Web Storage API the adapters use. */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** localStorage when the environment has one (and allows it), else undefined. */
export function defaultStorage(): StorageLike | undefined {
  try {
    const storage = (globalThis as { localStorage?: StorageLike }).localStorage;
    return storage ?? undefined;
  } catch {
    return undefined;
  }
}

/** The keys the console writes (contract §5.2). */
export const StorageKey = {
  user: 'user',
  status: 'status',
  systemName: 'system_name',
  logo: 'logo',
  footerHtml: 'footer_html',
  quotaPerUnit: 'quota_per_unit',
  displayInCurrency: 'display_in_currency',
  chatLink: 'chat_link',
  channelModels: 'channel_models',
} as const;

/** Free-form preference keys read and written as plain strings. */
export type LocalKey = 'show_detail' | 'aff' | 'lang' | 'color_mode' | 'notice' | 'home_page_content' | 'about' | `prompt-${string}`;

function getItem(storage: StorageLike | undefined, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Sets `key`, or removes it when `value` is null. False when the storage refused (quota, privacy mode). */
function setItem(storage: StorageLike | undefined, key: string, value: string | null): boolean {
  if (storage === undefined) return false;
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

/** A stored JSON value decoded with `codec`; missing, unparsable or ill-shaped reads as null. */
export function parseStored<A>(codec: t.Decoder<unknown, A>, text: string | null): A | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const result = codec.decode(value);
  return E.isRight(result) ? result.right : null;
}

/** The signed-in user record (`user`), or null. */
export const readStoredUser = (storage = defaultStorage()): User | null =>
  parseStored(User, getItem(storage, StorageKey.user));

/** Stores the user record, or removes it (sign-out) when null. */
export const writeStoredUser = (user: User | null, storage = defaultStorage()): boolean =>
  setItem(storage, StorageKey.user, user === null ? null : JSON.stringify(user));

/** The last server status (`status`), or null. */
export const readStoredStatus = (storage = defaultStorage()): Status | null =>
  parseStored(Status, getItem(storage, StorageKey.status));

/**
 * Stores the status and the keys derived from it (contract §5.2): system_name, logo,
 * footer_html, quota_per_unit, display_in_currency, chat_link, as strings; an empty value
 * removes its key.
 */
export function writeStoredStatus(status: Status, storage = defaultStorage()): boolean {
  const derived: ReadonlyArray<readonly [string, string]> = [
    [StorageKey.systemName, status.system_name],
    [StorageKey.logo, status.logo],
    [StorageKey.footerHtml, status.footer_html],
    [StorageKey.quotaPerUnit, String(status.quota_per_unit)],
    [StorageKey.displayInCurrency, String(status.display_in_currency)],
    [StorageKey.chatLink, status.chat_link],
  ];
  let ok = setItem(storage, StorageKey.status, JSON.stringify(status));
  for (const [key, value] of derived) ok = setItem(storage, key, value === '' ? null : value) && ok;
  return ok;
}

/** The footer HTML from the last status, or ''. */
export const readStoredFooter = (storage = defaultStorage()): string => getItem(storage, StorageKey.footerHtml) ?? '';

/** Stores `/api/models` data (`channel_models`). */
export const writeChannelModels = (models: ChannelTypeModels, storage = defaultStorage()): boolean =>
  setItem(storage, StorageKey.channelModels, JSON.stringify(models));

/** The stored default models per channel type, or null. */
export const readChannelModels = (storage = defaultStorage()): ChannelTypeModels | null =>
  parseStored(ChannelTypeModels, getItem(storage, StorageKey.channelModels));

/** A plain string preference (show_detail, aff, notice, prompt-*), or null. */
export const readLocal = (key: LocalKey, storage = defaultStorage()): string | null => getItem(storage, key);

/** Sets a plain string preference, or removes it when null. */
export const writeLocal = (key: LocalKey, value: string | null, storage = defaultStorage()): boolean =>
  setItem(storage, key, value);

// ---------------------------------------------------------------------------------------------
// Clipboard and windows

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
 * Rejects when both fail (the caller shows spec §8's "cannot copy" warning).
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
  if (!copyWithTextarea(text, env.document)) throw new Error('cannot copy to clipboard');
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

export interface DownloadEnv {
  readonly document?: Pick<Document, 'createElement' | 'body'>;
  readonly url?: Pick<typeof URL, 'createObjectURL' | 'revokeObjectURL'>;
}

const defaultDownloadEnv = (): DownloadEnv => ({
  document: (globalThis as { document?: DownloadEnv['document'] }).document,
  url: (globalThis as { URL?: DownloadEnv['url'] }).URL,
});

/** Saves `text` as a plain-text file called `name` (a temporary link with `download`). Throws without a DOM. */
export function downloadText(name: string, text: string, env: DownloadEnv = defaultDownloadEnv()): void {
  const { document: doc, url } = env;
  if (doc === undefined || url === undefined) throw new Error('cannot download a file here');
  const href = url.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
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

/** Saves `blob` as a file called `name` (a temporary link with `download`). Throws without a DOM. */
export function downloadBlob(name: string, blob: Blob, env: DownloadEnv = defaultDownloadEnv()): void {
  const { document: doc, url } = env;
  if (doc === undefined || url === undefined) throw new Error('cannot download a file here');
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

export type WindowOpener = Pick<Window, 'open'>;

/** Opens `url` in a new tab without giving it access to this window. */
export function openWindow(url: string, win: Partial<WindowOpener> = globalThis): void {
  if (typeof win.open === 'function') win.open(url, '_blank', 'noopener,noreferrer');
}

// ---------------------------------------------------------------------------------------------
// Session signals

/** A tiny broadcast: the API client's `onUnauthorized` calls `notify`; the session watcher subscribes. */
export interface UnauthorizedSignal {
  readonly notify: () => void;
  readonly subscribe: (listener: () => void) => () => void;
}

export function createUnauthorizedSignal(): UnauthorizedSignal {
  const listeners = new Set<() => void>();
  return {
    notify: () => {
      for (const listener of [...listeners]) {
        try {
          listener();
        } catch {
          // One failing listener must not stop the others.
        }
      }
    },
    subscribe: (listener) => {
      const own = (): void => {
        listener();
      };
      listeners.add(own);
      return () => {
        listeners.delete(own);
      };
    },
  };
}

/** What the session watcher sends to its parent (the session machine). */
export type SessionWatchEvent =
  | { readonly type: 'session.expired' }
  | { readonly type: 'session.storageChanged'; readonly user: User | null };

export type StorageEventTarget = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

export interface SessionWatchDeps {
  /** The signal the API client's onUnauthorized notifies. */
  readonly unauthorized: UnauthorizedSignal;
  /** Where 'storage' events arrive; defaults to the window (absent outside a browser). */
  readonly target?: StorageEventTarget;
  /** Only events of this storage area count; defaults to localStorage. */
  readonly storageArea?: StorageLike;
}

const defaultEventTarget = (): StorageEventTarget | undefined => {
  const target = globalThis as Partial<StorageEventTarget>;
  return typeof target.addEventListener === 'function' ? globalThis : undefined;
};

/** What the session machine asks the watcher to persist. */
export type SessionStoreCommand =
  | { readonly type: 'user.save'; readonly user: User | null }
  | { readonly type: 'status.save'; readonly status: Status };

/**
 * Callback actor logic for the session machine: persists the `user.save` / `status.save`
 * commands it receives (localStorage `user`, `status` and the derived keys), sends
 * `session.expired` when the API client reports a 401, and `session.storageChanged` with the
 * decoded user (or null) when another tab changes or clears localStorage 'user'.
 */
export const watchSession = (deps: SessionWatchDeps): CallbackActorLogic<EventObject> =>
  fromCallback<EventObject>(({ sendBack, receive }) => {
    const send = (event: SessionWatchEvent): void => {
      sendBack(event);
    };
    const area = deps.storageArea ?? defaultStorage();
    receive((event) => {
      const command = event as SessionStoreCommand;
      if (command.type === 'user.save') writeStoredUser(command.user, area);
      else if (command.type === 'status.save') writeStoredStatus(command.status, area);
    });
    const unsubscribe = deps.unauthorized.subscribe(() => {
      send({ type: 'session.expired' });
    });
    const target = deps.target ?? defaultEventTarget();
    const onStorage = (event: Event): void => {
      const { key, newValue, storageArea } = event as StorageEvent;
      if (key !== null && key !== StorageKey.user) return;
      if (area !== undefined && storageArea !== null && storageArea !== area) return;
      send({ type: 'session.storageChanged', user: key === null ? null : parseStored(User, newValue) });
    };
    target?.addEventListener('storage', onStorage);
    return () => {
      unsubscribe();
      target?.removeEventListener('storage', onStorage);
    };
  });
