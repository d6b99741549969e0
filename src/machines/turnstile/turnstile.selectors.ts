import type { SnapshotFrom } from 'xstate';
import type { turnstileMachine } from './turnstile.machine';

type Snapshot = SnapshotFrom<typeof turnstileMachine>;

/** What the widget shows: nothing yet, a loading line, the provider's challenge, or the failure. */
export type TurnstilePhase = 'idle' | 'loading' | 'ready' | 'solved' | 'failed';

export const selectPhase = (s: Snapshot): TurnstilePhase => {
  if (s.matches('loading')) return 'loading';
  if (s.matches('ready')) return 'ready';
  if (s.matches('solved')) return 'solved';
  if (s.matches('failed')) return 'failed';
  return 'idle';
};
/** The token to send as `turnstile=`; '' while there is none (the requests' own check says wait). */
export const selectToken = (s: Snapshot): string => s.context.token ?? '';
/** The provider's script is there: the challenge is (to be) rendered. */
export const selectIsRendered = (s: Snapshot): boolean => s.matches('ready') || s.matches('solved');
