import { msg, type NavigateEvent, type NotifyEvent } from '../../domain/message';
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
import { createFormMachine, isEditOf, notProvided } from '../form';

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

const tokenFormActors = {
  loadToken: notProvided<Token, { readonly id: number }>('loadToken'),
  loadAvailableModels: notProvided<readonly string[], unknown>('loadAvailableModels'),
  saveToken: notProvided<void, SaveTokenInput>('saveToken'),
};

/**
 * The token form (/token/add, /token/edit/:id), a form machine (src/machines/form). Both load the
 * models the caller may use (`loadAvailableModels`; a failure only says so, the list stays empty);
 * edit also loads the token (`loadToken`; a failure stops the page with a retry). Create starts
 * from quota 500000, never expires, limited (spec §3). The quick buttons set the expiry to never or
 * now plus a month (30 days), a day, an hour, a minute; the unlimited switch frees the quota. A
 * submit checks the rules (name on create, '过期时间格式错误！', a whole quota, valid IP restriction
 * entries: the field and a toast say which), saves (`saveToken`), says '令牌创建成功…' or
 * '令牌更新成功！' and goes to /token. A refused save keeps the form. Cancel goes to /token.
 */
export const tokenFormMachine = createFormMachine<
  TokenFormContext,
  TokenFormEvent,
  TokenFormInput,
  Token,
  typeof tokenFormActors,
  TokenFormEmitted,
  'tokenForm'
>({
  id: 'tokenForm',
  context: (input) => ({
    id: input.id,
    offsetMinutes: input.offsetMinutes ?? null,
    form: emptyTokenForm,
    availableModels: [],
    modelFilter: '',
    problem: null,
  }),
  emptyForm: emptyTokenForm,
  record: { region: 'token', src: 'loadToken', fill: (context, token) => ({ form: tokenFormOf(token, offsetOf(context)) }) },
  lists: [
    {
      region: 'models',
      src: 'loadAvailableModels',
      take: (_, models) => ({ availableModels: [...new Set(models as readonly string[])] }),
      unavailable: 'tokenForm.modelsUnavailable',
    },
  ],
  loadOnCreate: true,
  setField: (context, event) => ({ form: { ...context.form, [event.field]: event.value }, problem: null }),
  edits: {
    'models.toggle': (context, event) => ({ form: { ...context.form, models: toggleModel(context.form.models, event.model) } }),
    'models.clear': (context) => ({ form: { ...context.form, models: [] } }),
    'models.filter': (_, event) => ({ modelFilter: event.text }),
    'expiry.quick': (context, event) => ({
      form: { ...context.form, expiry: expiryText(expiryAfter(event.preset, event.now), offsetOf(context)) },
      problem: context.problem?.field === 'expiry' ? null : context.problem,
    }),
    'unlimited.toggle': (context) => ({
      form: { ...context.form, unlimited: !context.form.unlimited },
      problem: context.problem?.field === 'remainQuota' ? null : context.problem,
    }),
  },
  check: (context) => {
    const problem = checkTokenForm(context.form, isEditOf(context), offsetOf(context));
    // Said once, under its field (the view focuses it); no toast repeats it.
    return problem === null ? { ok: true } : { ok: false, problem, notice: null };
  },
  save: {
    src: 'saveToken',
    input: (context): SaveTokenInput => ({
      id: context.id,
      // the submit's rules made sure the form is valid
      payload: tokenPayloadOf(context.form, isEditOf(context), offsetOf(context)) ?? {
        name: '',
        remain_quota: 0,
        expired_time: -1,
        unlimited_quota: false,
      },
    }),
    done: (context) => ({
      notice: msg(isEditOf(context) ? 'tokenForm.updated' : 'tokenForm.created'),
      navigate: tokenListPath,
      next: 'done',
    }),
  },
  cancelTo: () => tokenListPath,
  doneState: 'saved',
  actors: tokenFormActors,
});
