import { assign, emit, fromPromise, setup } from 'xstate';
import { errorText, isApiError, type ApiError } from '../../domain/apiError';
import { defaultLogCleanTarget, parseDateTime, toDateTimeLocal } from '../../domain/format';
import { msg, notify, type NotifyEvent } from '../../domain/message';

export interface LogCleanInput {
  /** Unix seconds now: the target starts 30 days before (spec §9). */
  readonly now: number;
}

export type LogCleanEvent =
  /** The datetime-local field as typed ('YYYY-MM-DDTHH:mm'). */
  | { readonly type: 'target.change'; readonly value: string }
  /** The clear button: asks for confirmation first. */
  | { readonly type: 'clean.request' }
  | { readonly type: 'confirm.accept' }
  | { readonly type: 'confirm.cancel' };

export interface LogCleanContext {
  /** The target as the field shows it. */
  readonly target: string;
  /** How many logs the last clean removed (null before the first). */
  readonly lastCount: number | null;
}

/** `clearLogs`: DELETE /api/log/?target_timestamp= → the number of rows cleared. */
export interface ClearLogsInput {
  readonly targetTimestamp: number;
}

export type LogCleanEmitted = NotifyEvent;

/** The target in Unix seconds, or null when the field holds no valid date-time. */
export const targetTimestampOf = (context: LogCleanContext): number | null => parseDateTime(context.target);

/** The text 'log cleanup failed: {message}' embeds: the server's message, else what went wrong. */
export function failureText(error: unknown): string {
  if (!isApiError(error)) return error instanceof Error ? error.message : String(error);
  const e: ApiError = error;
  switch (e._tag) {
    case 'Failure':
    case 'Network':
      return e.message;
    case 'HttpStatus':
      return `${e.status} ${e.message}`.trim();
    case 'Decode':
      return e.report;
    case 'Refused':
      return errorText(e);
  }
}

/**
 * Operation settings → clear history logs (spec §6, §8, §9): a target time (30 days ago by
 * default), a confirmation, then `clearLogs`; says '{count} logs cleared!' or
 * 'log cleanup failed: {message}'.
 */
export const logCleanMachine = setup({
  types: {
    context: {} as LogCleanContext,
    input: {} as LogCleanInput,
    events: {} as LogCleanEvent,
    emitted: {} as LogCleanEmitted,
    tags: {} as 'busy',
  },
  actors: {
    clearLogs: fromPromise<number, ClearLogsInput>(() => {
      throw new Error('clearLogs not provided');
    }),
  },
  guards: {
    hasTarget: ({ context }) => targetTimestampOf(context) !== null,
  },
  actions: {
    setTarget: assign({ target: (_, params: { value: string }) => params.value }),
    notifyInvalidTarget: emit(() => notify('error', msg('settingsExtras.logClean.invalidTarget'))),
    notifyCleared: emit((_, params: { count: number }) => notify('success', msg('settingsExtras.logClean.cleared', { count: params.count }))),
    rememberCount: assign({ lastCount: (_, params: { count: number }) => params.count }),
    notifyFailure: emit((_, params: { error: unknown }) =>
      notify('error', msg('settingsExtras.logClean.failed', { message: failureText(params.error) })),
    ),
  },
}).createMachine({
  id: 'logClean',
  context: ({ input }) => ({ target: toDateTimeLocal(defaultLogCleanTarget(input.now)), lastCount: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'target.change': { actions: { type: 'setTarget', params: ({ event }) => ({ value: event.value }) } },
        'clean.request': [{ guard: 'hasTarget', target: 'confirming' }, { actions: 'notifyInvalidTarget' }],
      },
    },
    confirming: {
      on: {
        'confirm.accept': { target: 'clearing' },
        'confirm.cancel': { target: 'idle' },
      },
    },
    clearing: {
      tags: ['busy'],
      invoke: {
        id: 'clearLogs',
        src: 'clearLogs',
        input: ({ context }) => ({ targetTimestamp: targetTimestampOf(context) ?? 0 }),
        onDone: {
          target: 'idle',
          actions: [
            { type: 'rememberCount', params: ({ event }) => ({ count: event.output }) },
            { type: 'notifyCleared', params: ({ event }) => ({ count: event.output }) },
          ],
        },
        onError: { target: 'idle', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});
