import { assertEvent, emit, fromPromise, setup } from 'xstate';
import { describeError } from '../../domain/apiError';
import { msg, notify, type NotifyEvent } from '../../domain/message';
import { validateBindCode } from '../../domain/validation';

export type WeChatBindEvent =
  | { readonly type: 'wechat.open' }
  | { readonly type: 'wechat.cancel' }
  /** The dialog was submitted with wechat_verification_code. */
  | { readonly type: 'wechat.submit'; readonly code: string };

/** Emitted after a binding succeeded (the tab reloads the account's bindings). */
export interface AccountBound {
  readonly type: 'account.bound';
}

export type WeChatBindEmitted = NotifyEvent | AccountBound;

/** `bindWeChat`: GET /api/oauth/wechat/bind?code=. */
export interface BindWeChatInput {
  readonly code: string;
}

/**
 * "Bind WeChat": a dialog with the official account's QR code and a code input; an empty
 * code does nothing (spec §5 Binding); `bindWeChat` then says '微信账户绑定成功！', closes the
 * dialog and emits `account.bound`. A refusal keeps the dialog open with the server's message.
 */
export const wechatBindMachine = setup({
  types: {
    events: {} as WeChatBindEvent,
    emitted: {} as WeChatBindEmitted,
    tags: {} as 'busy',
  },
  actors: {
    bindWeChat: fromPromise<void, BindWeChatInput>(() => {
      throw new Error('bindWeChat not provided');
    }),
  },
  guards: {
    hasCode: (_, params: { code: string }) => validateBindCode(params.code).ok,
  },
  actions: {
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeError(params.error);
      return notify(d.level, d.message);
    }),
    notifyBound: emit(() => notify('success', msg('personal.wechat.bound'))),
    emitBound: emit((): AccountBound => ({ type: 'account.bound' })),
  },
}).createMachine({
  id: 'wechatBind',
  initial: 'closed',
  states: {
    closed: { on: { 'wechat.open': 'open' } },
    open: {
      on: {
        'wechat.cancel': 'closed',
        'wechat.submit': {
          guard: { type: 'hasCode', params: ({ event }) => ({ code: event.code }) },
          target: 'binding',
        },
      },
    },
    binding: {
      tags: ['busy'],
      invoke: {
        id: 'bindWeChat',
        src: 'bindWeChat',
        input: ({ event }) => {
          assertEvent(event, 'wechat.submit');
          return { code: event.code.trim() };
        },
        onDone: { target: 'closed', actions: ['notifyBound', 'emitBound'] },
        onError: { target: 'open', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});
