/**
 * Path filters shared by the sign-in machine suites (oauthCallback, oauthLaunch, wechatLogin).
 *
 * The support traversal feeds every generated event (`xstate.done/error.actor.*`,
 * `xstate.after.*`) in every state. XState itself only sends them while the invoke runs or the
 * delay is armed; fed elsewhere, an unhandled `xstate.error.actor.*` puts the snapshot in
 * status 'error'. These paths cannot happen, so the suites drop them before checking.
 */
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { canOccur } from './support/model';

interface PathLike {
  readonly state: unknown;
  readonly steps: readonly { readonly event: AnyEventObject; readonly state: unknown }[];
}

/** A path every event of which XState could really have produced, in order. */
export function isRealistic(path: PathLike): boolean {
  const snaps = path.steps.map((s) => s.state as AnyMachineSnapshot);
  if (snaps.some((s) => s.status === 'error')) return false;
  return path.steps.every((step, i) => i === 0 || canOccur(snaps[i - 1]!, step.event));
}

/** Every snapshot along the path, the initial one first. */
export const snapshotsOf = <S>(path: { readonly steps: readonly { readonly state: S }[] }): S[] =>
  path.steps.map((s) => s.state);
