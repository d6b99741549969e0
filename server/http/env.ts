import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database, Dialect, UserRow } from '../db/schema';

/** What the API needs from the outside world. `now` returns epoch milliseconds (default `Date.now`). */
export interface ApiDeps {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  readonly config: Config;
  readonly now?: () => number;
}

/** `ApiDeps` with every field resolved, as handlers read it from the context. */
export interface ResolvedDeps extends ApiDeps {
  readonly now: () => number;
  /** Process (API) start, Unix seconds. */
  readonly startTime: number;
}

/** The Hono environment of every /api handler: `c.get('deps')`, and after a guard `c.get('user')`. */
export interface AppEnv {
  Variables: {
    deps: ResolvedDeps;
    /** The caller's fresh database row; set by userAuth/adminAuth/rootAuth. */
    user: UserRow;
    /** How the caller authenticated; set by the guards. */
    authVia: 'session' | 'token';
    /** The `X-Oneapi-Request-Id` of this request. */
    requestId: string;
  };
}

/** The header that carries the request id on every answer (one-api's). */
export const requestIdHeader = 'X-Oneapi-Request-Id';
