import { assign, emit, sendTo, setup } from 'xstate';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import { oauthLaunchMachine } from '../oauthLaunch';
import { relayEmitted } from '../pageRelay';
import { followSession, type SessionChanged, type SessionRef } from '../sessionWatch';
import {
  emailBindMachine,
  personalSettingsMachine,
  selfDeleteMachine,
  wechatBindMachine,
  type AccountBound,
  type AccountDeleted,
} from '../personalSettings';

export type { SessionRef } from '../sessionWatch';

export interface PersonalSettingsPageInput {
  /** The app's session actor: a deleted account signs out through it. */
  readonly session: SessionRef;
  /** The console's origin (invite link, OAuth redirect). */
  readonly origin: string;
  /** The signed-in user's name (what the deletion dialog asks to type). */
  readonly username: string;
  /** Turnstile guards the e-mail code (at mount; later changes come from the session as `session.changed`). */
  readonly turnstileEnabled: boolean;
}

/** The children's facts, relayed to the page. */
export type PersonalSettingsPageEvent = AccountBound | AccountDeleted | NotifyEvent | NavigateEvent | SessionChanged;

/** The children of the page, by invoke id (each also the child's system id). */
export const personalSettingsChildren = ['personalSettings', 'selfDelete', 'wechatBind', 'emailBind', 'oauthLaunch'] as const;

/**
 * The personal settings tab of /setting: invokes its five workflows (the tab itself, the deletion
 * dialog, the WeChat and e-mail bindings, the GitHub / Lark launch) and routes their facts. A
 * binding (`account.bound`) reloads the account; a deleted account (`account.deleted`) asks the
 * session to sign out; a status reload that turns Turnstile on or off (reported by
 * `followSession`) reaches the e-mail binding
 * (`turnstile.change`); the children's toasts leave the page as its own emitted events.
 */
export const personalSettingsPageMachine = setup({
  types: {
    context: {} as PersonalSettingsPageInput,
    input: {} as PersonalSettingsPageInput,
    events: {} as PersonalSettingsPageEvent,
    emitted: {} as NotifyEvent | NavigateEvent,
    children: {} as {
      personalSettings: 'personalSettings';
      selfDelete: 'selfDelete';
      wechatBind: 'wechatBind';
      emailBind: 'emailBind';
      oauthLaunch: 'oauthLaunch';
      relayEmitted: 'relayEmitted';
      followSession: 'followSession';
    },
  },
  actors: {
    personalSettings: personalSettingsMachine,
    selfDelete: selfDeleteMachine,
    wechatBind: wechatBindMachine,
    emailBind: emailBindMachine,
    oauthLaunch: oauthLaunchMachine,
    relayEmitted,
    followSession,
  },
  guards: {
    isTurnstileChange: ({ context }, params: { enabled: boolean }) => params.enabled !== context.turnstileEnabled,
  },
  actions: {
    reloadAccount: sendTo('personalSettings', { type: 'account.reload' as const }),
    signOut: sendTo(({ context }) => context.session, { type: 'logout.request' as const }),
    setTurnstile: assign({ turnstileEnabled: (_, params: { enabled: boolean }) => params.enabled }),
    tellTurnstile: sendTo('emailBind', (_, params: { enabled: boolean }) => ({ type: 'turnstile.change' as const, enabled: params.enabled })),
    notify: emit((_, params: NotifyEvent) => params),
    navigate: emit((_, params: NavigateEvent) => params),
  },
}).createMachine({
  id: 'personalSettingsPage',
  context: ({ input }) => input,
  initial: 'active',
  states: {
    active: {
      invoke: [
        { id: 'personalSettings', src: 'personalSettings', systemId: 'personalSettings', input: ({ context }) => ({ origin: context.origin }) },
        { id: 'selfDelete', src: 'selfDelete', systemId: 'selfDelete', input: ({ context }) => ({ username: context.username }) },
        { id: 'wechatBind', src: 'wechatBind', systemId: 'wechatBind' },
        { id: 'emailBind', src: 'emailBind', systemId: 'emailBind', input: ({ context }) => ({ turnstileEnabled: context.turnstileEnabled }) },
        { id: 'oauthLaunch', src: 'oauthLaunch', systemId: 'oauthLaunch', input: ({ context }) => ({ origin: context.origin }) },
        { id: 'relayEmitted', src: 'relayEmitted', input: { systemIds: personalSettingsChildren } },
        { id: 'followSession', src: 'followSession', input: ({ context }) => ({ session: context.session }) },
      ],
      on: {
        'account.bound': { actions: 'reloadAccount' },
        'account.deleted': { actions: 'signOut' },
        'session.changed': {
          guard: { type: 'isTurnstileChange', params: ({ event }) => ({ enabled: event.facts.turnstileEnabled }) },
          actions: [
            { type: 'setTurnstile', params: ({ event }) => ({ enabled: event.facts.turnstileEnabled }) },
            { type: 'tellTurnstile', params: ({ event }) => ({ enabled: event.facts.turnstileEnabled }) },
          ],
        },
        notify: { actions: { type: 'notify', params: ({ event }) => event } },
        navigate: { actions: { type: 'navigate', params: ({ event }) => event } },
      },
    },
  },
});
