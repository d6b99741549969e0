import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { Redis } from 'ioredis';
import type { Config } from '../config';
import type { Database } from '../db/schema';

/**
 * Keeping several gateway processes on one database in step (README "Running several instances").
 *
 * With Redis configured (`REDIS_CONN_STRING` + `SYNC_FREQUENCY`), a process may keep a few
 * read-mostly things in memory (the relay's options, channel selections). Whoever changes them
 * calls `announce(db, topic)`: the local generation of the topic changes at once, and a message on
 * the Redis channel `oa:sync:<db index>` makes every other process change its own within
 * milliseconds. As a fallback (a lost message, Redis unreachable for a while) every generation
 * also changes every `SYNC_FREQUENCY` seconds, as one-api re-reads its caches at that period; and
 * after the subscriber reconnects, every topic is invalidated (messages may have been missed).
 *
 * Without Redis nothing is kept in memory across requests on PostgreSQL: `generation` answers
 * undefined and callers read the database every time, so several processes are consistent
 * without any messaging.
 */

type Db = Kysely<Database>;

/** What can be cached and announced. */
export type SyncTopic = 'options' | 'channels';
const topics: readonly SyncTopic[] = ['options', 'channels'];

interface Sync {
  readonly origin: string;
  readonly channel: string;
  readonly periodMs: number;
  readonly counters: Record<SyncTopic, number>;
  readonly publisher: Redis;
  readonly subscriber: Redis;
  stopped: boolean;
  /** True while subscribed: only then may anything be kept in memory. */
  live: boolean;
}

const syncs = new WeakMap<Db, Sync>();

/** The Redis database index of a `redis://host:port/<n>` URL (0 when absent). */
const databaseIndex = (url: string): string => {
  try {
    const n = new URL(url).pathname.replace(/^\//, '');
    return /^\d+$/.test(n) ? n : '0';
  } catch {
    return '0';
  }
};

const isTopic = (value: string): value is SyncTopic => (topics as readonly string[]).includes(value);

/** Logs a Redis error at most once a minute per connection. */
function quietErrors(redis: Redis, what: string): void {
  let last = 0;
  redis.on('error', (error: Error) => {
    if (Date.now() - last < 60_000) return;
    last = Date.now();
    console.error(`[sync] Redis ${what}:`, error.message);
  });
}

/**
 * Starts the invalidation messages of `db` when `config` names a Redis (caching begins once the
 * subscription is live). The answer stops them (call before closing the database).
 */
export function startClusterSync(db: Db, config: Pick<Config, 'redisConnString' | 'syncFrequencySeconds'>): () => Promise<void> {
  const url = config.redisConnString;
  if (url === null) return () => Promise.resolve();
  const options = { maxRetriesPerRequest: 1, connectTimeout: 3000 };
  const sync: Sync = {
    origin: randomUUID(),
    channel: `oa:sync:${databaseIndex(url)}`,
    periodMs: config.syncFrequencySeconds * 1000,
    counters: { options: 0, channels: 0 },
    publisher: new Redis(url, options),
    subscriber: new Redis(url, { ...options, maxRetriesPerRequest: null }),
    stopped: false,
    live: false,
  };
  quietErrors(sync.publisher, 'publisher');
  quietErrors(sync.subscriber, 'subscriber');
  sync.subscriber.on('message', (channel: string, message: string) => {
    if (channel !== sync.channel) return;
    const [origin, topic] = message.split(' ');
    if (origin === sync.origin || topic === undefined || !isTopic(topic)) return;
    sync.counters[topic] += 1;
  });
  // Nothing is cached while the subscription is not live (not yet, or the connection dropped):
  // messages could be missed, so every read goes to the database meanwhile.
  let subscribedOnce = false;
  sync.subscriber.on('close', () => {
    sync.live = false;
  });
  sync.subscriber.on('ready', () => {
    if (!subscribedOnce) return;
    // A reconnect (ioredis subscribes again by itself): what was kept before is not trusted.
    for (const topic of topics) sync.counters[topic] += 1;
    sync.live = true;
  });
  syncs.set(db, sync);
  // Not awaited: a Redis that is down at start must not hold the gateway up.
  sync.subscriber.subscribe(sync.channel).then(
    () => {
      subscribedOnce = true;
      sync.live = true;
    },
    (error: unknown) => {
      console.error(`[sync] Redis subscription failed, options and channels are read from the database on every request: ${error instanceof Error ? error.message : String(error)}`);
    },
  );
  return () => {
    if (sync.stopped) return Promise.resolve();
    sync.stopped = true;
    sync.live = false;
    if (syncs.get(db) === sync) syncs.delete(db);
    // Nothing to flush (a lost announcement is covered by SYNC_FREQUENCY); quit could wait for a Redis that is down.
    sync.subscriber.disconnect();
    sync.publisher.disconnect();
    return Promise.resolve();
  };
}

/**
 * A value that changes whenever `topic` may have changed on `db` (anywhere in the cluster), and at
 * least every SYNC_FREQUENCY seconds; undefined when nothing may be cached (no Redis): read the
 * database.
 */
export function clusterGeneration(db: Db, topic: SyncTopic): string | undefined {
  const sync = syncs.get(db);
  if (sync?.live !== true) return undefined;
  return `${sync.counters[topic]}:${Math.floor(Date.now() / sync.periodMs)}`;
}

/** Says that `topic` changed on `db`: this process forgets at once, the others when the message arrives. Never throws. */
export function announce(db: Db, topic: SyncTopic): void {
  const sync = syncs.get(db);
  if (sync === undefined) return;
  sync.counters[topic] += 1;
  if (sync.stopped) return;
  sync.publisher.publish(sync.channel, `${sync.origin} ${topic}`).catch((error: unknown) => {
    console.error(`[sync] announcing a change of ${topic} failed (others catch up within SYNC_FREQUENCY): ${error instanceof Error ? error.message : String(error)}`);
  });
}
