import { assign, emit } from 'xstate';
import { redemptionDefaults } from '../../domain/constants';
import { msg, notify, type Message, type NavigateEvent, type NotifyEvent } from '../../domain/message';
import type { Redemption, RedemptionPayload } from '../../domain/redemption';
import { fieldProblem, numberRules } from '../../domain/numberRules';
import { validateRedemptionCreate } from '../../domain/validation';
import { createFormMachine, isEditOf, notProvided } from '../form';

/** `/redemption/edit/:id` gives the id; `/redemption/add` gives null. */
export interface RedemptionFormInput {
  readonly id: number | null;
}

/** The form as typed (numbers stay text until the submit checks them). */
export interface RedemptionForm {
  readonly name: string;
  readonly quota: string;
  /** Create only: how many codes to generate. */
  readonly count: string;
}

export type RedemptionField = keyof RedemptionForm;

export interface RedemptionFormContext {
  readonly id: number | null;
  readonly form: RedemptionForm;
  /** The rule the last submit broke (shown by the field until the form changes). */
  readonly problem: { readonly field: RedemptionField; readonly message: Message } | null;
  /** The keys the last create generated. */
  readonly keys: readonly string[];
  /** The name they were generated under (the file is `<name>.txt`). */
  readonly createdName: string;
}

export type RedemptionFormEvent =
  | { readonly type: 'field.change'; readonly field: RedemptionField; readonly value: string }
  | { readonly type: 'form.submit' }
  | { readonly type: 'form.retry' }
  | { readonly type: 'keys.copy' }
  | { readonly type: 'keys.download' }
  | { readonly type: 'form.again' };

export type RedemptionFormEmitted = NotifyEvent | NavigateEvent;

/** `saveRedemption`: POST /api/redemption/ (create: the generated keys) or PUT with the id (edit: []). */
export interface SaveRedemptionInput {
  readonly id: number | null;
  readonly payload: RedemptionPayload;
}

/** `downloadKeys`: a plain-text file `<name>.txt`, one key per line. */
export interface DownloadKeysInput {
  readonly name: string;
  readonly text: string;
}

/** Where the form goes after an edit is saved. */
export const redemptionListPath = '/redemption';
/** The most codes one create may generate (contract §2.8.4). */
export const maxRedemptionCount = 100;

export const emptyRedemptionForm: RedemptionForm = {
  name: '',
  quota: String(redemptionDefaults.quota),
  count: String(redemptionDefaults.count),
};

const formOf = (r: Redemption): RedemptionForm => ({ name: r.name, quota: String(r.quota), count: String(redemptionDefaults.count) });

const integerOf = (text: string): number | null => (/^-?\d{1,15}$/.test(text.trim()) ? Number(text.trim()) : null);

/** The file name of a batch: the name the codes were created under. */
export const keysFileName = (name: string): string => `${name}.txt`;
/** The file's text: one key per line. */
export const keysText = (keys: readonly string[]): string => (keys.length === 0 ? '' : `${keys.join('\n')}\n`);

/** The first broken rule of the form, or null: the payload can be sent. */
export function checkRedemptionForm(form: RedemptionForm, isEdit: boolean): RedemptionFormContext['problem'] {
  const name = validateRedemptionCreate({ name: form.name.trim() }, isEdit);
  if (!name.ok) return { field: 'name', message: name.message ?? msg('validation.redemption.nameRequired') };
  const quota = fieldProblem(numberRules.amount, form.quota, 'number.field.redemptionQuota', msg('redemptions.form.quotaInvalid'));
  if (quota !== null) return { field: 'quota', message: quota };
  if (!isEdit) {
    const count = integerOf(form.count);
    if (count === null || count < 1 || count > maxRedemptionCount) {
      return { field: 'count', message: msg('redemptions.form.countInvalid', { max: maxRedemptionCount }) };
    }
  }
  return null;
}

/** What a submit sends: name and quota, plus the count when creating. */
export const redemptionPayloadOf = (form: RedemptionForm, isEdit: boolean): RedemptionPayload =>
  isEdit
    ? { name: form.name.trim(), quota: integerOf(form.quota) ?? 0 }
    : { name: form.name.trim(), quota: integerOf(form.quota) ?? 0, count: integerOf(form.count) ?? redemptionDefaults.count };

const redemptionFormActors = {
  loadRedemption: notProvided<Redemption, { readonly id: number }>('loadRedemption'),
  saveRedemption: notProvided<readonly string[], SaveRedemptionInput>('saveRedemption'),
  downloadKeys: notProvided<void, DownloadKeysInput>('downloadKeys'),
  copyText: notProvided<void, { readonly text: string }>('copyText'),
};

/**
 * The redemption form (/redemption/add, /redemption/edit/:id), a form machine
 * (src/machines/form). Editing loads the code first (`loadRedemption`; a failure can be retried)
 * and changes name and quota; creating starts from quota 100000 and count 1. A submit checks the
 * rules (name required, whole numbers, 1–100 codes), saves (`saveRedemption`) and says
 * '兑换码更新成功！' (then back to the list) or '兑换码创建成功！'. After a create the generated keys
 * download as `<name>.txt`, one per line (`downloadKeys`), and stay on the page to copy
 * (`copyText`) or download again until the person creates another batch. A refused save keeps
 * the form.
 */
export const redemptionFormMachine = createFormMachine<
  RedemptionFormContext,
  RedemptionFormEvent,
  RedemptionFormInput,
  Redemption,
  typeof redemptionFormActors,
  RedemptionFormEmitted,
  'redemptionForm'
>({
  id: 'redemptionForm',
  context: (input) => ({ id: input.id, form: emptyRedemptionForm, problem: null, keys: [], createdName: '' }),
  emptyForm: emptyRedemptionForm,
  record: { region: 'redemption', src: 'loadRedemption', fill: (_, redemption) => ({ form: formOf(redemption) }) },
  // create opens the defaults at once
  loadOnCreate: false,
  setField: (context, event) => ({ form: { ...context.form, [event.field]: event.value }, problem: null }),
  check: (context) => {
    const problem = checkRedemptionForm(context.form, isEditOf(context));
    return problem === null ? { ok: true } : { ok: false, problem, notice: { level: 'warning', message: problem.message } };
  },
  save: {
    src: 'saveRedemption',
    input: (context): SaveRedemptionInput => ({ id: context.id, payload: redemptionPayloadOf(context.form, isEditOf(context)) }),
    done: (context, output) =>
      isEditOf(context)
        ? { notice: msg('redemptions.form.updated'), navigate: redemptionListPath, next: 'editing' }
        : {
            assign: { keys: [...(output as readonly string[])], createdName: context.form.name.trim() },
            notice: msg('redemptions.form.created'),
            navigate: null,
            next: 'done',
          },
  },
  doneState: 'created',
  /** The batch exists: its keys are shown, downloaded once on arrival. */
  doneConfig: {
    initial: 'downloading',
    on: { 'form.again': { target: 'editing', actions: 'startOver' } },
    states: {
      downloading: {
        tags: ['busy'],
        invoke: {
          id: 'downloadKeys',
          src: 'downloadKeys',
          input: ({ context }: { context: RedemptionFormContext }): DownloadKeysInput => ({
            name: keysFileName(context.createdName),
            text: keysText(context.keys),
          }),
          onDone: 'shown',
          onError: { target: 'shown', actions: { type: 'notifyFailure', params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) } },
        },
      },
      shown: {
        on: { 'keys.copy': 'copying', 'keys.download': 'downloading' },
      },
      copying: {
        tags: ['busy'],
        invoke: {
          id: 'copyText',
          src: 'copyText',
          input: ({ context }: { context: RedemptionFormContext }) => ({ text: context.keys.join('\n') }),
          onDone: { target: 'shown', actions: 'notifyCopied' },
          onError: { target: 'shown', actions: 'notifyCopyFailed' },
        },
      },
    },
  },
  actions: {
    startOver: assign(() => ({ form: emptyRedemptionForm, keys: [], createdName: '', problem: null })),
    notifyCopied: emit(() => notify('success', msg('redemptions.copied'))),
    notifyCopyFailed: emit(() => notify('warning', msg('redemptions.form.copyFailed'))),
  },
  actors: redemptionFormActors,
});
