import { afterAll, beforeAll } from 'vitest';
import { Client } from './http';
import { startApi, type RunningApi, type StartOptions } from './server';
import type { DbTarget, TestDatabase } from './targets';

/** Per-suite state: one fresh database and one running server (created in beforeAll). */
export interface SuiteContext {
  readonly api: RunningApi;
  readonly testDb: TestDatabase;
  /** A new browser (empty cookie jar) for the running server. */
  client(): Client;
  /** Stops the server and starts a new one on the same database (a restart). */
  restart(options?: StartOptions): Promise<void>;
}

/** Registers beforeAll/afterAll hooks for a suite on `target`; read the context inside tests only. */
export function setupSuite(target: DbTarget, options: StartOptions = {}): SuiteContext {
  let api: RunningApi | undefined;
  let testDb: TestDatabase | undefined;
  beforeAll(async () => {
    testDb = await target.create();
    api = await startApi(testDb.database, options);
  });
  afterAll(async () => {
    await api?.stop();
    await testDb?.dispose();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('suite not started');
    return value;
  };
  return {
    get api() {
      return ready(api);
    },
    get testDb() {
      return ready(testDb);
    },
    client: () => new Client(ready(api).url),
    restart: async (restartOptions = options) => {
      await ready(api).stop();
      api = await startApi(ready(testDb).database, restartOptions);
    },
  };
}
