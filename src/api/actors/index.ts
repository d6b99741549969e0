export { apiActors, fromApi, whenAborted } from './fromApi';
export type { ApiActors } from './fromApi';
export { copyText, copyTextActor } from './browser/clipboard';
export type { ClipboardEnv } from './browser/clipboard';
export { downloadText, downloadTextActor } from './browser/downloads';
export type { DownloadEnv } from './browser/downloads';
export { createUnauthorizedSignal, watchSession } from './browser/sessionWatch';
export type { SessionStoreCommand, SessionWatchDeps, SessionWatchEvent, StorageEventTarget, UnauthorizedSignal } from './browser/sessionWatch';
export {
  StorageKey,
  defaultStorage,
  parseStored,
  readChannelModels,
  readLocal,
  readStoredFooter,
  readStoredStatus,
  readStoredUser,
  writeChannelModels,
  writeLocal,
  writeStoredStatus,
  writeStoredUser,
} from './browser/storage';
export type { LocalKey, StorageLike } from './browser/storage';
export { openWindow } from './browser/windows';
export type { WindowOpener } from './browser/windows';
