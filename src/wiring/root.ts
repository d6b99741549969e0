import type { ApiClient } from '../api/client';

/**
 * What the composition root (src/main.tsx) hands every area's wiring: the one API client (with
 * its 401 signal and language). An area module builds its implementations from it with
 * `apiActors(client, build)`, naming only the API resources it calls.
 */
export interface WiringRoot {
  readonly client: ApiClient;
}

/** Where the console opened: the page whose first list an area may start at once (`primeFirstPage`). */
export interface FirstAddress {
  readonly pathname: string;
  readonly search: string;
  /** Whether the stored user (the session's first guess) is an admin; null when signed out. */
  readonly admin: boolean | null;
}
