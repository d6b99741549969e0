import { assign, emit, fromPromise, setup } from 'xstate';
import { describeError } from '../../domain/apiError';
import { msg, notify, type NotifyEvent } from '../../domain/message';
import type { User } from '../../domain/user';

export interface PersonalSettingsInput {
  /** The console's origin (`https://console.example.com`): the invite link is `<origin>/register?aff=<code>`. */
  readonly origin: string;
}

export type PersonalSettingsEvent =
  | { readonly type: 'token.generate' }
  | { readonly type: 'invite.copy' }
  /** A binding changed: read the account again. */
  | { readonly type: 'account.reload' }
  | { readonly type: 'secret.dismiss' };

export type SecretKind = 'token' | 'invite';

/** A value the clipboard refused, shown in a read-only box to copy by hand. */
export interface ShownSecret {
  readonly kind: SecretKind;
  readonly text: string;
}

export interface PersonalSettingsContext {
  readonly origin: string;
  /** The account as the server has it (bindings), null until loaded or when the load failed. */
  readonly user: User | null;
  /** The text being copied. */
  readonly pending: string;
  readonly shown: ShownSecret | null;
}

/** `copyText` input. */
export interface CopyTextInput {
  readonly text: string;
}

/** The invitation link of contract §2.4.5. */
export const inviteLink = (origin: string, affCode: string): string =>
  `${origin.replace(/\/+$/, '')}/register?aff=${encodeURIComponent(affCode)}`;

/**
 * The personal settings tab, apart from its dialogs: loads the account (`loadSelf`, for the
 * bindings), generates a new access token (`generateAccessToken`) and copies it ('令牌已重置并已复制到剪贴板'),
 * builds and copies the invite link (`fetchAffCode`, '邀请链接已复制到剪切板'). A refused
 * clipboard shows the value in a read-only box instead (`shown`). One call at a time.
 */
export const personalSettingsMachine = setup({
  types: {
    context: {} as PersonalSettingsContext,
    input: {} as PersonalSettingsInput,
    events: {} as PersonalSettingsEvent,
    emitted: {} as NotifyEvent,
    tags: {} as 'busy' | 'loading',
  },
  actors: {
    loadSelf: fromPromise<User>(() => {
      throw new Error('loadSelf not provided');
    }),
    generateAccessToken: fromPromise<string>(() => {
      throw new Error('generateAccessToken not provided');
    }),
    fetchAffCode: fromPromise<string>(() => {
      throw new Error('fetchAffCode not provided');
    }),
    copyText: fromPromise<void, CopyTextInput>(() => {
      throw new Error('copyText not provided');
    }),
  },
  actions: {
    takeUser: assign({ user: (_, params: { user: User }) => params.user }),
    setPending: assign({ pending: (_, params: { text: string }) => params.text, shown: null }),
    clearPending: assign({ pending: '' }),
    show: assign({ shown: ({ context }, params: { kind: SecretKind }): ShownSecret => ({ kind: params.kind, text: context.pending }), pending: '' }),
    dismiss: assign({ shown: null }),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeError(params.error);
      return notify(d.level, d.message);
    }),
    notifyCopied: emit((_, params: { kind: SecretKind }) =>
      notify('success', msg(params.kind === 'token' ? 'personal.token.copied' : 'personal.invite.copied')),
    ),
    notifyCopyFailed: emit(() => notify('warning', msg('personal.copyFailed'))),
  },
}).createMachine({
  id: 'personalSettings',
  context: ({ input }) => ({ origin: input.origin, user: null, pending: '', shown: null }),
  initial: 'loading',
  on: { 'secret.dismiss': { actions: 'dismiss' } },
  states: {
    loading: {
      tags: ['busy', 'loading'],
      invoke: {
        id: 'loadSelf',
        src: 'loadSelf',
        input: undefined,
        onDone: { target: 'ready', actions: { type: 'takeUser', params: ({ event }) => ({ user: event.output }) } },
        onError: { target: 'ready', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    ready: {
      on: {
        'token.generate': 'generatingToken',
        'invite.copy': 'fetchingInvite',
        'account.reload': 'loading',
      },
    },
    generatingToken: {
      tags: ['busy'],
      invoke: {
        id: 'generateAccessToken',
        src: 'generateAccessToken',
        input: undefined,
        onDone: { target: 'copyingToken', actions: { type: 'setPending', params: ({ event }) => ({ text: event.output }) } },
        onError: { target: 'ready', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    copyingToken: {
      tags: ['busy'],
      invoke: {
        id: 'copyText',
        src: 'copyText',
        input: ({ context }) => ({ text: context.pending }),
        onDone: { target: 'ready', actions: ['clearPending', { type: 'notifyCopied', params: { kind: 'token' } }] },
        onError: { target: 'ready', actions: [{ type: 'show', params: { kind: 'token' } }, 'notifyCopyFailed'] },
      },
    },
    fetchingInvite: {
      tags: ['busy'],
      invoke: {
        id: 'fetchAffCode',
        src: 'fetchAffCode',
        input: undefined,
        onDone: {
          target: 'copyingInvite',
          actions: { type: 'setPending', params: ({ context, event }) => ({ text: inviteLink(context.origin, event.output) }) },
        },
        onError: { target: 'ready', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    copyingInvite: {
      tags: ['busy'],
      invoke: {
        id: 'copyText',
        src: 'copyText',
        input: ({ context }) => ({ text: context.pending }),
        onDone: { target: 'ready', actions: ['clearPending', { type: 'notifyCopied', params: { kind: 'invite' } }] },
        onError: { target: 'ready', actions: [{ type: 'show', params: { kind: 'invite' } }, 'notifyCopyFailed'] },
      },
    },
  },
});
