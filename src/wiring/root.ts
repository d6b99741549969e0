import type { ApiClient } from '../api/client';

/**
 * What the composition root (src/main.tsx) hands every area's wiring: the one API client (with
 * its 401 signal and language). An area module builds its implementations from it with
 * `apiActors(client, build)`, naming only the API resources it calls.
 */
export interface WiringRoot {
  readonly client: ApiClient;
}
