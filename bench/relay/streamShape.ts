// The shape of the fake upstream's long answers (its `/tokens` path), read from the environment by
// the fake and by the bench that sets it up, so both count the same tokens.

/** When the tokens of a `/tokens` answer come (ms). */
export interface StreamShape {
  /** Wait before the headers and the first token. */
  readonly firstMs: number;
  /** Time between two tokens. */
  readonly everyMs: number;
  /** How long tokens come after the first. */
  readonly forMs: number;
}

/** A non-negative number from `env`, or `fallback` when unset. */
export function envNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number`);
  return n;
}

/** BENCH_STREAM_FIRST_MS (100), BENCH_STREAM_TOKEN_MS (500, at least 1), BENCH_STREAM_SECONDS (10). */
export const streamShapeOf = (env: NodeJS.ProcessEnv): StreamShape => ({
  firstMs: envNumber(env, 'BENCH_STREAM_FIRST_MS', 100),
  everyMs: Math.max(1, envNumber(env, 'BENCH_STREAM_TOKEN_MS', 500)),
  forMs: envNumber(env, 'BENCH_STREAM_SECONDS', 10) * 1000,
});

/** Tokens per answer: the first, then one every `everyMs` for `forMs`. */
export const tokensPerStream = (s: StreamShape): number => Math.floor(s.forMs / s.everyMs) + 1;
