import * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import { ChannelTypeModels } from '../../../domain/channelTypeModels';
import { Status } from '../../../domain/status';
import { User } from '../../../domain/user';

/*
 * The console's localStorage (contract §5.2): the signed-in user, the last status and the keys
 * derived from it, the channel models and plain string preferences. The storage is a parameter
 * that defaults to localStorage, so tests pass fakes; nothing here throws on malformed stored
 * data or on a storage that refuses.
 */

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
