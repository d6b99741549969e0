import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { describeError } from '../../domain/apiError';
import { msg, notify, type Message, type NotifyEvent } from '../../domain/message';
import type { RecoveryCodes, TwoFactorDisableBody, TwoFactorSetup, TwoFactorStatus } from '../../domain/twoFactor';
import type { SessionRef } from '../sessionWatch';

export interface TwoFactorSettingsInput {
  /** The app's session actor: told `session.enrolled` once two-factor sign-in is on (the shell stops holding an admin on the enrolment). */
  readonly session?: SessionRef;
}

export interface TwoFactorSettingsContext {
  readonly status: TwoFactorStatus | null;
  /** The secret and URI of a setup in progress (shown once; dropped when it ends). */
  readonly setup: TwoFactorSetup | null;
  /** Recovery codes just made (shown once). */
  readonly recoveryCodes: readonly string[];
  /** The code field of the open form. */
  readonly code: string;
  /** The password field of the disable form. */
  readonly password: string;
  /** The open form's problem (a field left empty, or the server's refusal). */
  readonly error: Message | null;
  /** The session to tell about an enrolment (absent in isolated stories and tests). */
  readonly session?: SessionRef | null;
}

export type TwoFactorSettingsEvent =
  | { readonly type: 'status.reload' }
  | { readonly type: 'setup.start' }
  | { readonly type: 'setup.confirm' }
  | { readonly type: 'disable.open' }
  | { readonly type: 'disable.confirm' }
  | { readonly type: 'regenerate.open' }
  | { readonly type: 'regenerate.confirm' }
  /** Closes the open form (setup, disable, regenerate). */
  | { readonly type: 'form.cancel' }
  | { readonly type: 'code.change'; readonly value: string }
  | { readonly type: 'password.change'; readonly value: string }
  | { readonly type: 'codes.copy' }
  | { readonly type: 'codes.dismiss' };

/** The input's type for `setup` (every member is optional). */
const noInput: TwoFactorSettingsInput = {};

const emptyForm = { code: '', password: '', error: null } as const;

/**
 * The two-factor section of the personal settings: loads the status; enrolment shows the new
 * secret and otpauth URI once, confirms it with a code and then shows the recovery codes once
 * (copy; the view offers a download); disable takes a code (TOTP or recovery) or the password;
 * new recovery codes need a code. A field left empty is named in the form, never sent.
 *
 * Actors (src/main.tsx): `loadTwoFactorStatus`, `startTwoFactorSetup`, `enableTwoFactor`,
 * `disableTwoFactor`, `regenerateRecoveryCodes` (the /api/user/2fa/* calls), `copyText`.
 */
export const twoFactorSettingsMachine = setup({
  types: {
    context: {} as TwoFactorSettingsContext,
    input: noInput,
    events: {} as TwoFactorSettingsEvent,
    emitted: {} as NotifyEvent,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    loadTwoFactorStatus: fromPromise<TwoFactorStatus>(() => {
      throw new Error('loadTwoFactorStatus not provided');
    }),
    startTwoFactorSetup: fromPromise<TwoFactorSetup>(() => {
      throw new Error('startTwoFactorSetup not provided');
    }),
    enableTwoFactor: fromPromise<RecoveryCodes, { readonly code: string }>(() => {
      throw new Error('enableTwoFactor not provided');
    }),
    disableTwoFactor: fromPromise<void, TwoFactorDisableBody>(() => {
      throw new Error('disableTwoFactor not provided');
    }),
    regenerateRecoveryCodes: fromPromise<RecoveryCodes, { readonly code: string }>(() => {
      throw new Error('regenerateRecoveryCodes not provided');
    }),
    copyText: fromPromise<void, { readonly text: string }>(() => {
      throw new Error('copyText not provided');
    }),
  },
  guards: {
    hasCode: ({ context }) => context.code.trim() !== '',
    hasProof: ({ context }) => context.code.trim() !== '' || context.password !== '',
  },
  actions: {
    takeStatus: assign({ status: (_, params: { status: TwoFactorStatus }) => params.status }),
    takeSetup: assign({ setup: (_, params: { setup: TwoFactorSetup }) => params.setup, ...emptyForm }),
    takeCodes: assign({ recoveryCodes: (_, params: { codes: readonly string[] }) => params.codes, setup: null, ...emptyForm }),
    forgetCodes: assign({ recoveryCodes: [] }),
    clearForm: assign({ ...emptyForm, setup: null }),
    openForm: assign({ ...emptyForm }),
    takeCode: assign({ code: (_, params: { value: string }) => params.value, error: null }),
    takePassword: assign({ password: (_, params: { value: string }) => params.value, error: null }),
    needCode: assign({ error: () => msg('twoFactor.error.codeRequired') }),
    needProof: assign({ error: () => msg('twoFactor.error.proofRequired') }),
    takeError: assign({ error: (_, params: { error: unknown }) => describeError(params.error).message }),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeError(params.error);
      return notify(d.level, d.message);
    }),
    notifyEnabled: emit(() => notify('success', msg('twoFactor.enabled.toast'))),
    tellSessionEnrolled: enqueueActions(({ context, enqueue }) => {
      if (context.session != null) enqueue.sendTo(context.session, { type: 'session.enrolled' });
    }),
    notifyDisabled: emit(() => notify('success', msg('twoFactor.disabled.toast'))),
    notifyRegenerated: emit(() => notify('success', msg('twoFactor.regenerated.toast'))),
    notifyCopied: emit(() => notify('success', msg('twoFactor.codes.copied'))),
    notifyCopyFailed: emit(() => notify('error', msg('twoFactor.codes.copyFailed'))),
  },
}).createMachine({
  id: 'twoFactorSettings',
  context: ({ input }) => ({
    status: null,
    setup: null,
    recoveryCodes: [],
    ...emptyForm,
    // Started without input where no session is at hand (tests, composition checks): nobody to tell.
    session: (input as TwoFactorSettingsInput | undefined)?.session ?? null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadTwoFactorStatus',
        src: 'loadTwoFactorStatus',
        input: undefined,
        onDone: { target: 'ready', actions: { type: 'takeStatus', params: ({ event }) => ({ status: event.output }) } },
        onError: { target: 'failed', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: { tags: ['error'], on: { 'status.reload': 'loading' } },
    ready: {
      on: {
        'setup.start': 'startingSetup',
        'disable.open': { target: 'disableForm', actions: 'openForm' },
        'regenerate.open': { target: 'regenerateForm', actions: 'openForm' },
        'status.reload': 'loading',
      },
    },
    startingSetup: {
      tags: ['busy'],
      invoke: {
        id: 'startTwoFactorSetup',
        src: 'startTwoFactorSetup',
        input: undefined,
        onDone: { target: 'confirmingSetup', actions: { type: 'takeSetup', params: ({ event }) => ({ setup: event.output }) } },
        onError: { target: 'ready', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    confirmingSetup: {
      on: {
        'code.change': { actions: { type: 'takeCode', params: ({ event }) => ({ value: event.value }) } },
        'setup.confirm': [{ guard: 'hasCode', target: 'enabling' }, { actions: 'needCode' }],
        'form.cancel': { target: 'ready', actions: 'clearForm' },
      },
    },
    enabling: {
      tags: ['busy'],
      invoke: {
        id: 'enableTwoFactor',
        src: 'enableTwoFactor',
        input: ({ context }) => ({ code: context.code.trim() }),
        onDone: {
          target: 'showingCodes',
          actions: [{ type: 'takeCodes', params: ({ event }) => ({ codes: event.output.recovery_codes }) }, 'notifyEnabled', 'tellSessionEnrolled'],
        },
        onError: { target: 'confirmingSetup', actions: { type: 'takeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    showingCodes: {
      on: {
        'codes.copy': 'copyingCodes',
        'codes.dismiss': { target: 'loading', actions: 'forgetCodes' },
      },
    },
    copyingCodes: {
      invoke: {
        id: 'copyText',
        src: 'copyText',
        input: ({ context }) => ({ text: context.recoveryCodes.join('\n') }),
        onDone: { target: 'showingCodes', actions: 'notifyCopied' },
        onError: { target: 'showingCodes', actions: 'notifyCopyFailed' },
      },
    },
    disableForm: {
      on: {
        'code.change': { actions: { type: 'takeCode', params: ({ event }) => ({ value: event.value }) } },
        'password.change': { actions: { type: 'takePassword', params: ({ event }) => ({ value: event.value }) } },
        'disable.confirm': [{ guard: 'hasProof', target: 'disabling' }, { actions: 'needProof' }],
        'form.cancel': { target: 'ready', actions: 'clearForm' },
      },
    },
    disabling: {
      tags: ['busy'],
      invoke: {
        id: 'disableTwoFactor',
        src: 'disableTwoFactor',
        input: ({ context }) => (context.code.trim() !== '' ? { code: context.code.trim() } : { password: context.password }),
        onDone: { target: 'loading', actions: ['clearForm', 'notifyDisabled'] },
        onError: { target: 'disableForm', actions: { type: 'takeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    regenerateForm: {
      on: {
        'code.change': { actions: { type: 'takeCode', params: ({ event }) => ({ value: event.value }) } },
        'regenerate.confirm': [{ guard: 'hasCode', target: 'regenerating' }, { actions: 'needCode' }],
        'form.cancel': { target: 'ready', actions: 'clearForm' },
      },
    },
    regenerating: {
      tags: ['busy'],
      invoke: {
        id: 'regenerateRecoveryCodes',
        src: 'regenerateRecoveryCodes',
        input: ({ context }) => ({ code: context.code.trim() }),
        onDone: {
          target: 'showingCodes',
          actions: [{ type: 'takeCodes', params: ({ event }) => ({ codes: event.output.recovery_codes }) }, 'notifyRegenerated'],
        },
        onError: { target: 'regenerateForm', actions: { type: 'takeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});
