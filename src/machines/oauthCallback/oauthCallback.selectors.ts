import type { SnapshotFrom } from 'xstate';
import type { Message } from '../../domain/message';
import { retryStep, type OAuthProvider, type oauthCallbackMachine } from './oauthCallback.machine';

type Snapshot = SnapshotFrom<typeof oauthCallbackMachine>;

/** What the callback page shows. */
export type OAuthCallbackPhase = 'processing' | 'retrying' | 'bound' | 'signedIn' | 'failed';

export const selectPhase = (s: Snapshot): OAuthCallbackPhase => {
  if (s.matches('retrying')) return 'retrying';
  if (s.matches('bound')) return 'bound';
  if (s.matches('signedIn')) return 'signedIn';
  if (s.matches('failed')) return 'failed';
  return 'processing';
};

/** Failed exchanges so far: the retry counter on the page. */
export const selectAttempt = (s: Snapshot): number => s.context.attempt;
export const selectLastError = (s: Snapshot): Message | null => s.context.lastError;
export const selectProvider = (s: Snapshot): OAuthProvider => s.context.provider;
export const selectIsBusy = (s: Snapshot): boolean => s.hasTag('busy');
/** The wait before the next exchange while retrying (retryBackoff: 2 s × attempt), in seconds. */
export const selectRetryWaitSeconds = (s: Snapshot): number => (retryStep * s.context.attempt) / 1000;
