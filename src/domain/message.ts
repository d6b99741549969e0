import type { MessageKey } from '../i18n';

export type { MessageKey };

/**
 * The rest of every catalogue key that starts with `Prefix`: keys built from values
 * (`` `settings.theme.${choice}` ``) take their values from this union, so a value without a
 * catalogue entry fails to compile.
 */
export type MessageKeySuffix<Prefix extends string> = MessageKey extends infer Key
  ? Key extends `${Prefix}${infer Rest}`
    ? Rest
    : never
  : never;

/**
 * What machines say to the person: a catalogue key (translated by the views) or a server's
 * own text shown verbatim. Machines never hold translated strings.
 */
export type Message =
  | { readonly key: MessageKey; readonly params?: Readonly<Record<string, string | number>> }
  | { readonly text: string };

export type NoticeLevel = 'success' | 'info' | 'warning' | 'error' | 'notice';

/** Emitted by machines; the shell turns it into a toast. */
export interface NotifyEvent {
  readonly type: 'notify';
  readonly level: NoticeLevel;
  readonly message: Message;
}

/** Emitted by machines; the shell turns it into a route change. */
export interface NavigateEvent {
  readonly type: 'navigate';
  readonly to: string;
  readonly replace?: boolean;
}

/** Emitted by machines after a change the server status reflects; the shell reloads the status. */
export interface StatusReloadEvent {
  readonly type: 'status.reload';
}

export const notify = (level: NoticeLevel, message: Message): NotifyEvent => ({ type: 'notify', level, message });
export const navigate = (to: string, replace = false): NavigateEvent => ({ type: 'navigate', to, replace });
export const reloadStatus = (): StatusReloadEvent => ({ type: 'status.reload' });
export const msg = (key: MessageKey, params?: Readonly<Record<string, string | number>>): Message =>
  params === undefined ? { key } : { key, params };
