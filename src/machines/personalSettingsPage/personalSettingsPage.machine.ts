import { assign, emit, fromCallback, sendTo, setup, type ActorRefFrom, type AnyActorRef, type EventObject } from 'xstate';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import { oauthLaunchMachine } from '../oauthLaunch';
import { relayEmitted } from '../pageRelay';
import type { sessionMachine } from '../session/session.machine';
import { selectStatus } from '../session/session.selectors';
import {
  emailBindMachine,
  personalSettingsMachine,
  selfDeleteMachine,
  wechatBindMachine,
  type AccountBound,
  type AccountDeleted,
} from '../personalSettings';

/** The session actor (src/machines/session): its status is watched; a deleted account signs out through it. */
export type SessionRef = ActorRefFrom<typeof sessionMachine> | AnyActorRef;

/** The session's status changed (a reload): what the page's children depend on. */
export interface StatusChanged {
  readonly type: 'status.changed';
  readonly turnstileEnabled: boolean;
}

/** Reports the session's status as `status.changed`, now and after every change of it. */
export const watchStatus = fromCallback<EventObject, { readonly session: SessionRef }>(({ input, sendBack }) => {
  const session = input.session as ActorRefFrom<typeof sessionMachine>;
  let last: boolean | undefined;
  const report = () => {
    const turnstileEnabled = selectStatus(session.getSnapshot())?.turnstile_check ?? false;
    if (turnstileEnabled === last) return;
    last = turnstileEnabled;
    sendBack({ type: 'status.changed', turnstileEnabled } satisfies StatusChanged);
  };
  report();
  const sub = session.subscribe(report);
  return () => sub.unsubscribe();
});

export interface PersonalSettingsPageInput {
  /** The app's session actor: a deleted account signs out through it. */
  readonly session: SessionRef;
  /** The console's origin (invite link, OAuth redirect). */
  readonly origin: string;
  /** The signed-in user's name (what the deletion dialog asks to type). */
  readonly username: string;
  /** Turnstile guards the e-mail code (at mount; later changes come from the session as `status.changed`). */
  readonly turnstileEnabled: boolean;
}

/** The children's facts, relayed to the page. */
export type PersonalSettingsPageEvent = AccountBound | AccountDeleted | NotifyEvent | NavigateEvent | StatusChanged;

/** The children of the page, by invoke id (each also the child's system id). */
export const personalSettingsChildren = ['personalSettings', 'selfDelete', 'wechatBind', 'emailBind', 'oauthLaunch'] as const;

/**
 * The personal settings tab of /setting: invokes its five workflows (the tab itself, the deletion
 * dialog, the WeChat and e-mail bindings, the GitHub / Lark launch) and routes their facts. A
 * binding (`account.bound`) reloads the account; a deleted account (`account.deleted`) asks the
 * session to sign out; a status reload that turns Turnstile on or off reaches the e-mail binding
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
      watchStatus: 'watchStatus';
    },
  },
  actors: {
    personalSettings: personalSettingsMachine,
    selfDelete: selfDeleteMachine,
    wechatBind: wechatBindMachine,
    emailBind: emailBindMachine,
    oauthLaunch: oauthLaunchMachine,
    relayEmitted,
    watchStatus,
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
        { id: 'watchStatus', src: 'watchStatus', input: ({ context }) => ({ session: context.session }) },
      ],
      on: {
        'account.bound': { actions: 'reloadAccount' },
        'account.deleted': { actions: 'signOut' },
        'status.changed': {
          guard: { type: 'isTurnstileChange', params: ({ event }) => ({ enabled: event.turnstileEnabled }) },
          actions: [
            { type: 'setTurnstile', params: ({ event }) => ({ enabled: event.turnstileEnabled }) },
            { type: 'tellTurnstile', params: ({ event }) => ({ enabled: event.turnstileEnabled }) },
          ],
        },
        notify: { actions: { type: 'notify', params: ({ event }) => event } },
        navigate: { actions: { type: 'navigate', params: ({ event }) => event } },
      },
    },
  },
});
