import type { Usage } from './types';

/**
 * Bounds what an upstream's reported usage can bill (issue 18): an upstream that reports
 * `completion_tokens: 1e12` must not drain a balance. Completion tokens are billed at most
 * `max_tokens` when the request set it (the model may not write more), else at most
 * `maxCompletion` (RELAY_MAX_COMPLETION_TOKENS), per choice (`n`); prompt tokens at most twice the local count
 * plus `maxCompletion` (local counts differ from the provider's, by tools and images, never by
 * orders of magnitude). A count that is not a finite, non-negative number counts as the bound.
 * Not bounded by the streamed text: reasoning models bill tokens they never stream.
 */

export interface UsageLimits {
  /** The prompt tokens counted locally. */
  readonly promptTokens: number;
  /** The request's `max_tokens` (or `max_completion_tokens`), or null. */
  readonly maxTokens: number | null;
  /** RELAY_MAX_COMPLETION_TOKENS. */
  readonly maxCompletion: number;
  /** The choices asked for (`n`, at least 1): each may use the completion limit. */
  readonly choices: number;
}

/** The usage to bill and, when the report was cut, a note for the server log and the consume log. */
export interface BoundedUsage {
  readonly usage: Usage;
  readonly note: string | null;
}

const bound = (reported: number, limit: number): number => (Number.isFinite(reported) && reported >= 0 ? Math.min(reported, limit) : limit);

export function boundedUsage(reported: Usage, limits: UsageLimits): BoundedUsage {
  const completionLimit = (limits.maxTokens ?? limits.maxCompletion) * Math.max(1, limits.choices);
  const promptLimit = 2 * limits.promptTokens + limits.maxCompletion;
  const usage = {
    promptTokens: bound(reported.promptTokens, promptLimit),
    completionTokens: bound(reported.completionTokens, completionLimit),
  };
  if (usage.promptTokens === reported.promptTokens && usage.completionTokens === reported.completionTokens) return { usage: reported, note: null };
  const note = `上游报告的用量异常（prompt ${String(reported.promptTokens)}，completion ${String(reported.completionTokens)}），按 prompt ${usage.promptTokens}，completion ${usage.completionTokens} 计费`;
  return { usage, note };
}
