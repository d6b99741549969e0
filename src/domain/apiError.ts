import type { Message, NoticeLevel } from './message';

/**
 * Every way a server call can fail (conventions §5). Plain data, so machines may keep it in
 * context and tests may compare it.
 */
export type ApiError =
  /** fetch itself failed: no connection, CORS, aborted. */
  | { readonly _tag: 'Network'; readonly call: string; readonly message: string }
  /** a non-2xx status; 401 also raised the session-expired signal. */
  | { readonly _tag: 'HttpStatus'; readonly call: string; readonly status: number; readonly message: string }
  /** `success: false` with the server's message. */
  | { readonly _tag: 'Failure'; readonly call: string; readonly message: string }
  /** the body did not match the codec; `report` names the bad field. */
  | { readonly _tag: 'Decode'; readonly call: string; readonly report: string }
  /**
   * the console refused before (or instead of) calling: what it says is a catalogue message
   * (translated by the views), never a fixed text; the server's own refusals are `Failure`.
   */
  | { readonly _tag: 'Refused'; readonly call: string; readonly refusal: Message };

export const networkError = (call: string, message: string): ApiError => ({ _tag: 'Network', call, message });
export const httpError = (call: string, status: number, message: string): ApiError => ({
  _tag: 'HttpStatus',
  call,
  status,
  message,
});
export const failure = (call: string, message: string): ApiError => ({ _tag: 'Failure', call, message });
export const decodeError = (call: string, report: string): ApiError => ({ _tag: 'Decode', call, report });
/** A refusal the console makes itself, said with a catalogue key (see `Refused`). */
export const refusedError = (call: string, refusal: Message): ApiError => ({ _tag: 'Refused', call, refusal });

export const isUnauthorized = (e: ApiError): boolean => e._tag === 'HttpStatus' && e.status === 401;

/** The spec §8 error catalogue: which toast a failed call shows. */
export function describeApiError(e: ApiError): { readonly level: NoticeLevel; readonly message: Message } {
  switch (e._tag) {
    case 'Failure':
      return { level: 'error', message: { text: e.message } };
    case 'Decode':
      return { level: 'error', message: { key: 'error.decode', params: { call: e.call, report: e.report } } };
    case 'Refused':
      return { level: 'error', message: e.refusal };
    case 'Network':
      return { level: 'error', message: { key: 'error.prefixed', params: { message: e.message } } };
    case 'HttpStatus':
      switch (e.status) {
        case 401:
          return { level: 'error', message: { key: 'error.expired' } };
        case 429:
          return { level: 'error', message: { key: 'error.tooManyRequests' } };
        case 500:
          return { level: 'error', message: { key: 'error.internal' } };
        case 405:
          return { level: 'info', message: { key: 'error.demoOnly' } };
        default:
          return { level: 'error', message: { key: 'error.prefixed', params: { message: e.message } } };
      }
  }
}

const apiErrorTags: ReadonlySet<string> = new Set(['Failure', 'Decode', 'Network', 'HttpStatus', 'Refused']);

/** Whether a thrown value is an ApiError (actors built with fromApi reject with one). */
export const isApiError = (e: unknown): e is ApiError =>
  typeof e === 'object' && e !== null && apiErrorTags.has(String((e as { _tag?: unknown })._tag));

/** Whether anything an actor threw is an HTTP 401 from the gateway (the session ended). */
export const isSessionExpiry = (e: unknown): boolean => isApiError(e) && isUnauthorized(e);

/** Like describeApiError for anything an actor may throw: a non-API error shows 'Error: ' plus its text. */
export function describeError(e: unknown): { readonly level: NoticeLevel; readonly message: Message } {
  if (isApiError(e)) return describeApiError(e);
  const text = e instanceof Error ? e.message : typeof e === 'string' ? e : 'unknown error';
  return { level: 'error', message: { key: 'error.prefixed', params: { message: text } } };
}

/**
 * A failure as plain text for places that embed it in another message (a test result, a log
 * line): the server's or the transport's message, the decode report, or a refusal's own text
 * (a catalogue refusal gives its key; the views translate refusals through `describeApiError`).
 */
export function errorText(e: ApiError): string {
  switch (e._tag) {
    case 'Decode':
      return `${e.call}: ${e.report}`;
    case 'Refused':
      return 'text' in e.refusal ? e.refusal.text : e.refusal.key;
    default:
      return e.message;
  }
}
