import { assign, emit, fromPromise, setup } from 'xstate';
import { describeError } from '../../domain/apiError';
import { msg, notify, type NotifyEvent } from '../../domain/message';

export interface UpdateCheckInput {
  /** The console's own build version (`v` + package version). */
  readonly currentVersion: string;
}

/** The latest public release as the check shows it. */
export interface LatestRelease {
  readonly tag: string;
  /** Release notes (Markdown, rendered sanitised by the view). */
  readonly notes: string;
  /** The release's page. */
  readonly url: string;
}

export type UpdateCheckEvent =
  /** The 'check for updates' button. */
  | { readonly type: 'check.request' }
  /** The new-release dialog was closed. */
  | { readonly type: 'dialog.close' };

export interface UpdateCheckContext {
  readonly currentVersion: string;
  /** The newer release being shown (null when none). */
  readonly release: LatestRelease | null;
}

export type UpdateCheckEmitted = NotifyEvent;

/** The release is the one this console was built from. */
export const isCurrentRelease = (context: UpdateCheckContext, release: LatestRelease): boolean =>
  release.tag === context.currentVersion;

/**
 * Personalisation settings → check for updates (spec §6, §7, §8): reads the latest public
 * release (`fetchLatestRelease`); the same tag as the console says '已是最新版本：{tag}',
 * another opens a dialog with its tag and notes; failures are error toasts.
 */
export const updateCheckMachine = setup({
  types: {
    context: {} as UpdateCheckContext,
    input: {} as UpdateCheckInput,
    events: {} as UpdateCheckEvent,
    emitted: {} as UpdateCheckEmitted,
    tags: {} as 'busy',
  },
  actors: {
    fetchLatestRelease: fromPromise<LatestRelease, void>(() => {
      throw new Error('fetchLatestRelease not provided');
    }),
  },
  guards: {
    isCurrent: ({ context }, params: { release: LatestRelease }) => isCurrentRelease(context, params.release),
  },
  actions: {
    notifyUpToDate: emit((_, params: { tag: string }) => notify('success', msg('settingsExtras.update.latest', { tag: params.tag }))),
    showRelease: assign({ release: (_, params: { release: LatestRelease }) => params.release }),
    clearRelease: assign({ release: null }),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeError(params.error);
      return notify(d.level, d.message);
    }),
  },
}).createMachine({
  id: 'updateCheck',
  context: ({ input }) => ({ currentVersion: input.currentVersion, release: null }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'check.request': { target: 'checking' } },
    },
    checking: {
      tags: ['busy'],
      invoke: {
        id: 'fetchLatestRelease',
        src: 'fetchLatestRelease',
        input: () => undefined,
        onDone: [
          {
            guard: { type: 'isCurrent', params: ({ event }) => ({ release: event.output }) },
            target: 'idle',
            actions: { type: 'notifyUpToDate', params: ({ event }) => ({ tag: event.output.tag }) },
          },
          { target: 'showing', actions: { type: 'showRelease', params: ({ event }) => ({ release: event.output }) } },
        ],
        onError: { target: 'idle', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    showing: {
      exit: 'clearRelease',
      on: { 'dialog.close': { target: 'idle' } },
    },
  },
});
