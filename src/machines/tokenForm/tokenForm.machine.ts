import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { describeError } from '../../domain/apiError';
import { msg, navigate, notify, type NavigateEvent, type NotifyEvent } from '../../domain/message';
import type { Token, TokenPayload } from '../../domain/token';
import {
  checkTokenForm,
  emptyTokenForm,
  expiryAfter,
  expiryText,
  tokenFormOf,
  tokenPayloadOf,
  toggleModel,
  type ExpiryPreset,
  type TokenForm,
  type TokenFormProblem,
  type TokenTextField,
} from '../../domain/tokenForm';

/** `/token/edit/:id` gives the id; `/token/add` gives null. `offsetMinutes`: the time zone (default local). */
export interface TokenFormInput {
  readonly id: number | null;
  readonly offsetMinutes?: number;
}

export interface TokenFormContext {
  readonly id: number | null;
  /** Minutes east of UTC the expiry is typed in; null = the browser's local time. */
  readonly offsetMinutes: number | null;
  readonly form: TokenForm;
  /** `GET /api/user/available_models` (empty when that call failed). */
  readonly availableModels: readonly string[];
  /** The text narrowing the model list. */
  readonly modelFilter: string;
  /** The rule the last submit broke (shown by its field until the form changes). */
  readonly problem: TokenFormProblem | null;
}

export type TokenFormEvent =
  | { readonly type: 'field.change'; readonly field: TokenTextField; readonly value: string }
  | { readonly type: 'models.toggle'; readonly model: string }
  | { readonly type: 'models.clear' }
  | { readonly type: 'models.filter'; readonly text: string }
  /** A quick expiry button; `now` is the Unix seconds of the click. */
  | { readonly type: 'expiry.quick'; readonly preset: ExpiryPreset; readonly now: number }
  | { readonly type: 'unlimited.toggle' }
  | { readonly type: 'form.submit' }
  | { readonly type: 'form.retry' }
  | { readonly type: 'form.cancel' };

export type TokenFormEmitted = NotifyEvent | NavigateEvent;

/** `saveToken`: POST /api/token/ (id null) or PUT /api/token/ with the id. */
export interface SaveTokenInput {
  readonly id: number | null;
  readonly payload: TokenPayload;
}

/** Where the form leads after a save and on cancel. */
export const tokenListPath = '/token';

const offsetOf = (context: TokenFormContext): number | undefined => context.offsetMinutes ?? undefined;
const isEditOf = (context: TokenFormContext): boolean => context.id !== null;

/**
 * The token form (/token/add, /token/edit/:id). Both load the models the caller may use
 * (`loadAvailableModels`; a failure only says so, the list stays empty); edit also loads the token
 * (`loadToken`; a failure stops the page with a retry). Create starts from quota 500000, never
 * expires, limited (spec §3). The quick buttons set the expiry to never or now plus a month (30
 * days), a day, an hour, a minute; the unlimited switch frees the quota. A submit checks the rules
 * (name on create, '过期时间格式错误！', a whole quota, valid IP restriction entries: the field and a
 * toast say which), saves (`saveToken`), says '令牌创建成功…' or '令牌更新成功！' and goes to /token.
 * A refused save keeps the form. Cancel goes to /token.
 */
export const tokenFormMachine = setup({
  types: {
    context: {} as TokenFormContext,
    events: {} as TokenFormEvent,
    emitted: {} as TokenFormEmitted,
    input: {} as TokenFormInput,
    tags: {} as 'busy' | 'loading',
  },
  actors: {
    loadToken: fromPromise<Token, { readonly id: number }>(() => {
      throw new Error('loadToken not provided');
    }),
    loadAvailableModels: fromPromise<readonly string[], unknown>(() => {
      throw new Error('loadAvailableModels not provided');
    }),
    saveToken: fromPromise<void, SaveTokenInput>(() => {
      throw new Error('saveToken not provided');
    }),
  },
  guards: {
    isEditing: ({ context }) => isEditOf(context),
    isValid: ({ context }) => checkTokenForm(context.form, isEditOf(context), offsetOf(context)) === null,
  },
  actions: {
    resetForm: assign({ form: emptyTokenForm, problem: null }),
    fillFromToken: assign({ form: ({ context }, params: { token: Token }) => tokenFormOf(params.token, offsetOf(context)) }),
    setAvailable: assign({ availableModels: (_, params: { models: readonly string[] }) => [...new Set(params.models)] }),
    setField: assign(({ context }, params: { field: TokenTextField; value: string }) => ({
      form: { ...context.form, [params.field]: params.value },
      problem: null,
    })),
    toggleModel: assign(({ context }, params: { model: string }) => ({
      form: { ...context.form, models: toggleModel(context.form.models, params.model) },
    })),
    clearModels: assign({ form: ({ context }) => ({ ...context.form, models: [] }) }),
    setFilter: assign({ modelFilter: (_, params: { text: string }) => params.text }),
    setExpiry: assign(({ context }, params: { preset: ExpiryPreset; now: number }) => ({
      form: { ...context.form, expiry: expiryText(expiryAfter(params.preset, params.now), offsetOf(context)) },
      problem: context.problem?.field === 'expiry' ? null : context.problem,
    })),
    toggleUnlimited: assign(({ context }) => ({
      form: { ...context.form, unlimited: !context.form.unlimited },
      problem: context.problem?.field === 'remainQuota' ? null : context.problem,
    })),
    findProblem: assign({ problem: ({ context }) => checkTokenForm(context.form, isEditOf(context), offsetOf(context)) }),
    notifyProblem: enqueueActions(({ context, enqueue }) => {
      if (context.problem !== null) enqueue.emit(notify('error', context.problem.message));
    }),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeError(params.error);
      return notify(d.level, d.message);
    }),
    notifyModelsUnavailable: emit(() => notify('warning', msg('tokenForm.modelsUnavailable'))),
    notifySaved: emit(({ context }) => notify('success', msg(isEditOf(context) ? 'tokenForm.updated' : 'tokenForm.created'))),
    goToList: emit(() => navigate(tokenListPath)),
  },
}).createMachine({
  id: 'tokenForm',
  context: ({ input }) => ({
    id: input.id,
    offsetMinutes: input.offsetMinutes ?? null,
    form: emptyTokenForm,
    availableModels: [],
    modelFilter: '',
    problem: null,
  }),
  initial: 'loading',
  on: {
    'form.cancel': { actions: 'goToList' },
  },
  states: {
    /** The token (edit only) and the available models, side by side. */
    loading: {
      tags: ['busy', 'loading'],
      type: 'parallel',
      entry: 'resetForm',
      onDone: 'editing',
      states: {
        token: {
          initial: 'choosing',
          states: {
            choosing: {
              always: [{ guard: 'isEditing', target: 'fetching' }, { target: 'done' }],
            },
            fetching: {
              invoke: {
                id: 'loadToken',
                src: 'loadToken',
                input: ({ context }) => ({ id: context.id ?? 0 }),
                onDone: { target: 'done', actions: { type: 'fillFromToken', params: ({ event }) => ({ token: event.output }) } },
                onError: {
                  target: '#tokenForm.loadFailed',
                  actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
            done: { type: 'final' },
          },
        },
        models: {
          initial: 'fetching',
          states: {
            fetching: {
              invoke: {
                id: 'loadAvailableModels',
                src: 'loadAvailableModels',
                input: () => undefined,
                onDone: { target: 'done', actions: { type: 'setAvailable', params: ({ event }) => ({ models: event.output }) } },
                onError: { target: 'done', actions: 'notifyModelsUnavailable' },
              },
            },
            done: { type: 'final' },
          },
        },
      },
    },
    loadFailed: {
      on: { 'form.retry': 'loading' },
    },
    editing: {
      on: {
        'field.change': { actions: { type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) } },
        'models.toggle': { actions: { type: 'toggleModel', params: ({ event }) => ({ model: event.model }) } },
        'models.clear': { actions: 'clearModels' },
        'models.filter': { actions: { type: 'setFilter', params: ({ event }) => ({ text: event.text }) } },
        'expiry.quick': { actions: { type: 'setExpiry', params: ({ event }) => ({ preset: event.preset, now: event.now }) } },
        'unlimited.toggle': { actions: 'toggleUnlimited' },
        'form.submit': [{ guard: 'isValid', target: 'saving', actions: 'findProblem' }, { actions: ['findProblem', 'notifyProblem'] }],
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveToken',
        src: 'saveToken',
        input: ({ context }): SaveTokenInput => ({
          id: context.id,
          // the guard of form.submit made sure the form is valid
          payload: tokenPayloadOf(context.form, isEditOf(context), offsetOf(context)) ?? {
            name: '',
            remain_quota: 0,
            expired_time: -1,
            unlimited_quota: false,
          },
        }),
        onDone: { target: 'saved', actions: ['notifySaved', 'goToList'] },
        onError: { target: 'editing', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    saved: { type: 'final' },
  },
});
