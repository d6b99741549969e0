import { fromCallback, type CallbackActorLogic, type EventObject } from 'xstate';
import type { Status } from '../../../domain/status';
import { User } from '../../../domain/user';
import { defaultStorage, parseStored, StorageKey, writeStoredStatus, writeStoredUser, type StorageLike } from './storage';

/*
 * The session machine's watcher: the signal by which the API client reports a 401, and the
 * callback actor that persists the session's user and status and reports expiry and changes of
 * the stored user made by another tab.
 */

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
