import * as E from 'fp-ts/Either';
import type { Context } from 'hono';
import { autoDisableChannel, isFatalUpstreamError, upstreamError, type UpstreamError } from '../services/channelTest';
import { sendRelayError } from './auth';
import type { RelaySettings } from './relaySettings';
import { noChannelError, pickChannel, pinnedChannel } from './select';
import type { RelayCaller, RelayChannel, RelayError } from './types';
import type { ResolvedDeps } from '../http/env';

/**
 * One relayed request's attempts across channels (contract §4.3, §4.8, §4.9), shared by the text
 * pipeline, the audio and image-edit routes and the Responses route: the first channel (the
 * pinned one, else a draw among the caller's group), then, while an attempt fails in a way
 * another channel may not, the next draw excluding the channels tried, up to RetryTimes (never
 * for a pinned channel); a fatal upstream error disables its channel when the option says so; the
 * last failure is the answer, a 429 with one-api's "saturated" message.
 */

/** The final message of a request whose last attempt was answered 429 (§4.8). */
export const saturatedMessage = '当前分组上游负载已饱和，请稍后再试';

/** One failed attempt: the error for the client, and what the retry and auto-disable rules read. */
export interface Failure {
  readonly error: RelayError;
  /** Whether another channel may be tried (§4.8; never for quota or request errors). */
  readonly retryable: boolean;
  /** The upstream's error object and status, for the fatal-error rules (§4.9). */
  readonly upstream: { readonly error: UpstreamError; readonly status: number } | null;
}

export type Attempt = { readonly ok: true; readonly response: Response } | { readonly ok: false; readonly failure: Failure };

/** §4.8: retried are 429, 5xx and every other non-2xx except 400. */
export const retryableStatus = (status: number): boolean => status !== 400 && (status < 200 || status >= 300);

export const fail = (error: RelayError, retryable: boolean, upstream: Failure['upstream'] = null): Attempt => ({
  ok: false,
  failure: { error, retryable, upstream },
});

/** The relay error of an upstream's non-2xx answer (§4.1): its own error object when it has a message. */
export function upstreamFailure(status: number, text: string): Attempt {
  const parsed = upstreamError(status, text);
  const error: RelayError =
    parsed.type === 'upstream_error' && parsed.code === 'bad_response_status_code'
      ? { status, error: { message: parsed.message === '' ? `bad response status code ${status}` : parsed.message, type: 'upstream_error', param: String(status), code: 'bad_response_status_code' } }
      : { status, error: { message: parsed.message, type: parsed.type, param: '', code: parsed.code } };
  return fail(error, retryableStatus(status), { error: parsed, status });
}

/** Auto-disables the channel of a fatal upstream error when the option says so (§4.9); never throws. */
function maybeDisable(deps: ResolvedDeps, settings: RelaySettings, channel: RelayChannel, failure: Failure): void {
  if (!settings.automaticDisableChannelEnabled || failure.upstream === null) return;
  if (!isFatalUpstreamError(failure.upstream.error, failure.upstream.status)) return;
  const reason = `status code ${failure.upstream.status}: ${failure.upstream.error.message}`;
  void autoDisableChannel(deps.db, channel, reason).catch((error: unknown) => console.error(`[relay] disabling channel #${channel.id} failed:`, error));
}

/** What the channel loop needs of a request. */
export interface ChannelLoop {
  readonly deps: ResolvedDeps;
  readonly caller: RelayCaller;
  readonly settings: RelaySettings;
  /** The model channels are drawn for (the request's, before mapping). */
  readonly model: string;
  readonly requestId: string;
  /** One attempt on `channel`. */
  readonly attempt: (channel: RelayChannel) => Promise<Attempt>;
}

/** Runs attempts across channels until one answers or none may be tried; the response for the client. */
export async function acrossChannels<V extends { requestId: string }>(c: Context<{ Variables: V }>, loop: ChannelLoop): Promise<Response> {
  const { deps, caller, settings, model } = loop;
  let channel: RelayChannel | null;
  if (caller.pinnedChannelId !== null) {
    const found = await pinnedChannel(deps.db, caller.pinnedChannelId);
    if (E.isLeft(found)) return sendRelayError(c, found.left);
    channel = found.right;
  } else {
    channel = await pickChannel(deps.db, caller.group, model, new Set());
    if (channel === null) return sendRelayError(c, noChannelError(caller.group, model));
  }
  const tried = new Set<number>();
  let retriesLeft = caller.pinnedChannelId !== null ? 0 : settings.retryTimes;
  for (;;) {
    const result = await loop.attempt(channel);
    if (result.ok) return result.response;
    const { failure } = result;
    maybeDisable(deps, settings, channel, failure);
    tried.add(channel.id);
    const next = failure.retryable && retriesLeft > 0 ? await pickChannel(deps.db, caller.group, model, tried) : null;
    if (next === null) {
      const error = failure.error.status === 429 ? { ...failure.error, error: { ...failure.error.error, message: saturatedMessage } } : failure.error;
      return sendRelayError(c, error);
    }
    retriesLeft -= 1;
    console.warn(`[relay] request ${loop.requestId}: channel #${channel.id} failed (${failure.error.status}), retrying on channel #${next.id}`);
    channel = next;
  }
}
