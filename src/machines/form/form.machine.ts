import {
  assign,
  emit,
  enqueueActions,
  fromPromise,
  setup,
  type AnyActorLogic,
  type AnyActorRef,
  type EventObject,
  type MachineContext,
  type MetaObject,
  type ParameterizedObject,
  type ProvidedActor,
  type StateMachine,
  type StateSchema,
  type StateValue,
} from 'xstate';
import { describeError, isSessionExpiry } from '../../domain/apiError';
import { msg, navigate, notify, type Message, type MessageKey, type NavigateEvent, type NoticeLevel, type NotifyEvent } from '../../domain/message';
import { awaitSession, sessionRecoveryStates, type SessionRef } from '../sessionWatch';

/** What every edit form keeps: the record's id (null: creating), the draft, and the rule the last submit broke. */
export interface FormContext<TForm, TProblem> {
  readonly id: number | null;
  readonly form: TForm;
  readonly problem: TProblem | null;
  /** The app's session: a save refused with 401 waits for it (the sign-in dialog) and saves again. */
  readonly session?: SessionRef | null;
}

/** What every form's input may add: the session a 401 save waits for (without it a 401 is an ordinary failure). */
export interface FormSessionInput {
  readonly session?: SessionRef;
}

/** The events every edit form takes (each form adds its own). */
export type FormCoreEvent =
  | { readonly type: 'field.change'; readonly field: string; readonly value: string }
  | { readonly type: 'form.submit' }
  | { readonly type: 'form.retry' };

/** What `awaitSession` reports to a form waiting after a 401 save. */
export type FormSessionEvent = { readonly type: 'session.restored' } | { readonly type: 'session.lost' };

export type FormEmitted = NotifyEvent | NavigateEvent;

/** A toast the form says. */
export interface FormNotice {
  readonly level: NoticeLevel;
  readonly message: Message;
}

/**
 * What a submit finds: send it, or refuse it. A refusal may store the problem (shown by its field;
 * `undefined` keeps the stored one) and may say it; a refusal that neither stores nor says
 * anything is silent (the submit button does not even answer: `snapshot.can` is false).
 */
export type SubmitVerdict<TProblem> =
  | { readonly ok: true }
  | { readonly ok: false; readonly problem?: TProblem | null; readonly notice: FormNotice | null };

/** What a successful save does: context changes, the toast, where to go, and whether the form stays. */
export interface FormSaved<TContext> {
  readonly assign?: Partial<TContext>;
  readonly notice: Message;
  /** A path to navigate to (null: stay on the page). */
  readonly navigate: string | null;
  /** `editing`: the form stays open; `done`: the form's final state (`doneState`). */
  readonly next: 'editing' | 'done';
}

/** A list the form offers (groups, models...): loaded beside the record; a failure only says so. */
export interface FormListLoader<TContext> {
  /** The loading region's name. */
  readonly region: string;
  /** The actor's name (and invoke id). */
  readonly src: string;
  /** The context the list's output fills. */
  readonly take: (context: TContext, output: unknown) => Partial<TContext>;
  /** The catalogue key of the warning when the list could not be loaded. */
  readonly unavailable: MessageKey;
}

type Change<TContext> = Partial<TContext> | null;

export interface FormSpec<TContext extends FormContext<unknown, unknown>, TEvent extends EventObject, TInput, TRecord> {
  /** The machine id (conventions §2: the workflow's name). */
  readonly id: string;
  /** The context at start, from the input (id, the empty draft, the form's own fields). */
  readonly context: (input: TInput) => TContext;
  /** The empty draft: where loading starts again. */
  readonly emptyForm: TContext['form'];
  /** The record of an edit: its loading region, its actor (input `{ id }`), and the draft it fills. */
  readonly record: {
    readonly region: string;
    readonly src: string;
    readonly fill: (context: TContext, record: TRecord) => Partial<TContext>;
  };
  /** The lists loaded beside the record. */
  readonly lists?: readonly FormListLoader<TContext>[];
  /** Create loads too (its lists); otherwise create opens the empty form at once. */
  readonly loadOnCreate: boolean;
  /** Applied when loading is over (e.g. a new record's defaults that depend on a list). */
  readonly afterLoad?: (context: TContext) => Partial<TContext>;
  /** `field.change`: the context after the typed value. */
  readonly setField: (context: TContext, event: Extract<TEvent, { type: 'field.change' }>) => Partial<TContext>;
  /** The form's own editing events: the context after each, or null when the event is refused. */
  readonly edits?: { readonly [K in TEvent['type']]?: (context: TContext, event: Extract<TEvent, { type: K }>) => Change<TContext> };
  /** The form's rules, checked at submit. */
  readonly check: (context: TContext) => SubmitVerdict<TContext['problem']>;
  /** The save: its actor's name, its input, and what its output leads to. */
  readonly save: {
    readonly src: string;
    readonly input: (context: TContext) => unknown;
    readonly done: (context: TContext, output: unknown) => FormSaved<TContext>;
  };
  /** Where `form.cancel` leads (no cancel when absent). */
  readonly cancelTo?: (context: TContext) => string;
  /** The state a `done` save goes to (final unless `doneConfig` says more). */
  readonly doneState: string;
  /** The done state's own chart (children, events), referring to the form's `actions` and `actors`. */
  readonly doneConfig?: object;
  /** The actors: the record's, the lists', the save's, and any the done state invokes. */
  readonly actors: Readonly<Record<string, AnyActorLogic>>;
  /** Actions the done state refers to, by name. */
  readonly actions?: Readonly<Record<string, unknown>>;
}

/** The actors as `provide` and `implement` check them: by name, with their logic. */
type ProvidedActors<TActors> = {
  [K in keyof TActors & string]: { src: K; logic: TActors[K]; id: string | undefined };
}[keyof TActors & string];

/**
 * The type of a form machine. Its chart is built from the spec, so the compiler cannot see its
 * state values (`matches` takes any value); context, events, input, emitted events and actors
 * are the form's own.
 */
export type FormMachine<
  TContext extends MachineContext,
  TEvent extends EventObject,
  TInput,
  TActors,
  TEmitted extends EventObject,
  TId extends string = string,
> = StateMachine<
  TContext,
  TEvent,
  Record<string, AnyActorRef | undefined>,
  ProvidedActors<TActors> & ProvidedActor,
  ParameterizedObject,
  ParameterizedObject,
  string,
  StateValue,
  'busy' | 'loading',
  TInput,
  unknown,
  TEmitted,
  MetaObject,
  StateSchema & { readonly id: TId }
>;

/** The placeholder of an actor the composition root provides ("<name> not provided"). */
export const notProvided = <TOutput, TInput = unknown>(name: string) =>
  fromPromise<TOutput, TInput>(() => {
    throw new Error(`${name} not provided`);
  });

/** An edit of a record (its id is known) rather than a create. */
export const isEditOf = (context: { readonly id: number | null }): boolean => context.id !== null;

const failureNotice = (error: unknown): NotifyEvent => {
  const d = describeError(error);
  return notify(d.level, d.message);
};

/**
 * The load / edit / validate / save workflow of an edit page, written once:
 * - `starting` opens the empty form at once (create without lists) or loads;
 * - `loading` runs side by side the record (edit only; its failure stops the page in
 *   `loadFailed` with `form.retry`) and the lists (a failure only warns: the form still opens);
 * - `editing` takes `field.change` and the form's own events (`edits`); `form.submit` checks the
 *   rules (`check`): a refusal stores and says the problem (or is silent), a pass saves;
 * - `saving` runs the save; its output says what follows (`save.done`): a toast, perhaps a
 *   route, and either the open form again or the done state; a refused save keeps the form.
 * - a save answered 401 (with a session in the input) waits in `awaitingSession` for the
 *   session's sign-in dialog (`awaitSession`): the same user back → `resaving` sends the same
 *   payload once more; the session lost → `left` (final, the session navigates).
 * `form.cancel` (when `cancelTo` is given) navigates away from any state.
 * Each form keeps its own id, events, actor names, selectors and messages.
 */
export function createFormMachine<
  TContext extends FormContext<unknown, unknown>,
  TEvent extends EventObject,
  TInput,
  TRecord,
  TActors extends Readonly<Record<string, AnyActorLogic>>,
  TEmitted extends EventObject = FormEmitted,
  TId extends string = string,
>(spec: FormSpec<TContext, TEvent, TInput, TRecord> & { readonly actors: TActors; readonly id: TId }) {
  const lists = spec.lists ?? [];
  const edits = (spec.edits ?? {}) as Record<string, ((context: TContext, event: TEvent) => Change<TContext>) | undefined>;
  const editOf = (context: TContext, event: TEvent): Change<TContext> => edits[event.type]?.(context, event) ?? null;
  const isSilent = (verdict: SubmitVerdict<unknown>) => !verdict.ok && verdict.problem === undefined && verdict.notice === null;

  const region = (name: string, fetching: object, initial = 'fetching', extra: object = {}) => ({
    [name]: { initial, states: { ...extra, fetching, done: { type: 'final' } } },
  });

  const recordRegion = region(
    spec.record.region,
    {
      invoke: {
        id: spec.record.src,
        src: spec.record.src,
        input: ({ context }: { context: TContext }) => ({ id: context.id ?? 0 }),
        onDone: { target: 'done', actions: { type: 'fillRecord', params: ({ event }: { event: { output: TRecord } }) => ({ record: event.output }) } },
        onError: {
          target: `#${spec.id}.loadFailed`,
          actions: { type: 'notifyFailure', params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) },
        },
      },
    },
    'choosing',
    { choosing: { always: [{ guard: 'isEditing', target: 'fetching' }, { target: 'done' }] } },
  );

  const listRegions = lists.map((list) =>
    region(list.region, {
      invoke: {
        id: list.src,
        src: list.src,
        input: () => undefined,
        onDone: {
          target: 'done',
          actions: { type: 'takeList', params: ({ event }: { event: { output: unknown } }) => ({ region: list.region, output: event.output }) },
        },
        onError: { target: 'done', actions: { type: 'notifyUnavailable', params: { key: list.unavailable } } },
      },
    }),
  );

  const editEvents = Object.fromEntries(
    Object.keys(edits).map((type) => [
      type,
      {
        guard: { type: 'canEdit', params: ({ event }: { event: TEvent }) => ({ event }) },
        actions: { type: 'edit', params: ({ event }: { event: TEvent }) => ({ event }) },
      },
    ]),
  );

  const saveDone = [
    {
      guard: { type: 'staysOpen', params: ({ event }: { event: { output: unknown } }) => ({ output: event.output }) },
      target: 'editing',
      actions: { type: 'saved', params: ({ event }: { event: { output: unknown } }) => ({ output: event.output }) },
    },
    {
      target: spec.doneState,
      actions: { type: 'saved', params: ({ event }: { event: { output: unknown } }) => ({ output: event.output }) },
    },
  ];
  const saveFailed = {
    target: 'editing',
    actions: { type: 'notifyFailure', params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) },
  };

  const config = {
    id: spec.id,
    context: ({ input }: { input: TInput & FormSessionInput }) => ({ ...spec.context(input), session: input.session ?? null }),
    initial: 'starting',
    ...(spec.cancelTo === undefined ? {} : { on: { 'form.cancel': { actions: 'leave' } } }),
    states: {
      /** Create without lists opens the empty form at once; everything else loads first. */
      starting: {
        always: [{ guard: 'needsLoading', target: 'loading' }, { target: 'editing' }],
      },
      loading: {
        tags: ['busy', 'loading'],
        type: 'parallel',
        entry: 'resetForm',
        onDone: { target: 'editing', actions: 'afterLoad' },
        states: Object.assign({}, recordRegion, ...listRegions) as object,
      },
      loadFailed: {
        on: { 'form.retry': 'loading' },
      },
      editing: {
        on: {
          'field.change': { actions: { type: 'setField', params: ({ event }: { event: TEvent }) => ({ event }) } },
          ...editEvents,
          'form.submit': [
            // a silent rule: nothing is sent and nothing is said
            { guard: 'isSilentRefusal' },
            { guard: 'isRefused', actions: ['keepProblem', 'notifyProblem'] },
            { target: 'saving', actions: 'clearProblem' },
          ],
        },
      },
      // saving; a save answered 401 waits for the sign-in dialog (awaitingSession), then resaving or left
      ...sessionRecoveryStates('canAwaitSession', {
        id: spec.save.src,
        src: spec.save.src,
        input: ({ context }: { context: TContext }) => spec.save.input(context),
        onDone: saveDone,
        onError: saveFailed,
      }),
      [spec.doneState]: spec.doneConfig ?? { type: 'final' },
    },
  };

  const formSetup = setup({
    types: {
      context: {} as TContext,
      events: {} as TEvent,
      emitted: {} as TEmitted,
      input: {} as TInput & FormSessionInput,
      tags: {} as 'busy' | 'loading',
    },
    actors: { ...spec.actors, awaitSession },
    guards: {
      canAwaitSession: ({ context }, params: { error: unknown }) =>
        context.session !== undefined && context.session !== null && isSessionExpiry(params.error),
      isEditing: ({ context }) => isEditOf(context),
      needsLoading: ({ context }) => spec.loadOnCreate || isEditOf(context),
      canEdit: ({ context }, params: { event: TEvent }) => editOf(context, params.event) !== null,
      isSilentRefusal: ({ context }) => isSilent(spec.check(context)),
      isRefused: ({ context }) => !spec.check(context).ok,
      staysOpen: ({ context }, params: { output: unknown }) => spec.save.done(context, params.output).next === 'editing',
    },
    actions: {
      resetForm: assign(() => ({ form: spec.emptyForm, problem: null }) as Partial<TContext>),
      fillRecord: assign(({ context }, params: { record: TRecord }) => spec.record.fill(context, params.record)),
      takeList: assign(({ context }, params: { region: string; output: unknown }) =>
        lists.find((l) => l.region === params.region)!.take(context, params.output),
      ),
      afterLoad: assign(({ context }) => spec.afterLoad?.(context) ?? {}),
      setField: assign(({ context }, params: { event: TEvent }) =>
        spec.setField(context, params.event as Extract<TEvent, { type: 'field.change' }>),
      ),
      edit: assign(({ context }, params: { event: TEvent }) => editOf(context, params.event) ?? {}),
      keepProblem: assign(({ context }) => {
        const verdict = spec.check(context);
        return (verdict.ok || verdict.problem === undefined ? {} : { problem: verdict.problem }) as Partial<TContext>;
      }),
      clearProblem: assign(() => ({ problem: null }) as Partial<TContext>),
      notifyProblem: enqueueActions(({ context, enqueue }) => {
        const verdict = spec.check(context);
        if (!verdict.ok && verdict.notice !== null) enqueue.emit(notify(verdict.notice.level, verdict.notice.message) as never);
      }),
      notifyFailure: emit((_, params: { error: unknown }) => failureNotice(params.error) as never),
      notifyUnavailable: emit((_, params: { key: MessageKey }) => notify('warning', msg(params.key)) as never),
      saved: enqueueActions(({ context, enqueue }, params: { output: unknown }) => {
        const saved = spec.save.done(context, params.output);
        if (saved.assign !== undefined) enqueue.assign(saved.assign);
        enqueue.emit(notify('success', saved.notice) as never);
        if (saved.navigate !== null) enqueue.emit(navigate(saved.navigate) as never);
      }),
      leave: emit(({ context }) => navigate(spec.cancelTo?.(context) ?? '/') as never),
      ...(spec.actions as Record<string, never>),
    },
  });
  // The chart is built from the spec, so its state values are not known to the compiler: `matches` takes any value.
  return formSetup.createMachine(config as never) as unknown as FormMachine<
    TContext,
    TEvent,
    TInput & FormSessionInput,
    TActors & { readonly awaitSession: typeof awaitSession },
    TEmitted,
    TId
  >;
}
