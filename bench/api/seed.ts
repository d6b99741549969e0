import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

/**
 * Deterministic bulk data for the API bench: users, channels (+ abilities), tokens and logs
 * with a realistic spread (Zipf-like users, models and channels, 90 days of timestamps in id
 * order, every log type). The same rows go to SQLite (one transaction, one prepared statement
 * per table) and PostgreSQL (one transaction, batched `INSERT … SELECT FROM unnest(…)`).
 */

/** How much to seed. */
export interface SeedSizes {
  readonly users: number;
  readonly channels: number;
  readonly tokens: number;
  readonly logs: number;
}

/** Facts about the seeded data the bench queries with. */
export interface SeedFacts {
  /** The common user the /self routes log in as (owns many tokens and logs). */
  readonly heavyUser: { readonly id: number; readonly username: string; readonly password: string };
  /** Tokens owned by the heavy user. */
  readonly heavyUserTokens: number;
  /** A username with a middling number of logs. */
  readonly someUsername: string;
  readonly popularModel: string;
  readonly rareModel: string;
  readonly tokenName: string;
  readonly userKeyword: string;
  readonly tokenKeyword: string;
  readonly channelKeyword: string;
  readonly logKeyword: string;
  /** Newest log time (Unix seconds). */
  readonly now: number;
}

/** A column of a seeded table: its name and the PostgreSQL array type used by unnest. */
interface SeedColumn {
  readonly name: string;
  readonly pg: 'bigint' | 'int' | 'text' | 'boolean';
}

/** One table: its columns and a generator of rows (values in column order). */
interface SeedTable {
  readonly name: string;
  readonly columns: readonly SeedColumn[];
  readonly rows: () => Iterable<unknown[]>;
}

/** mulberry32: a small fast deterministic PRNG in [0, 1). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A picker of indexes 0..n-1 with Zipf-like weights 1/(i+1)^s. */
function zipf(n: number, s: number, rnd: () => number): () => number {
  const cdf = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) cdf[i] = total += 1 / Math.pow(i + 1, s);
  return () => {
    const x = rnd() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] ?? 0) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const pick = <T>(items: readonly T[], rnd: () => number): T => items[Math.floor(rnd() * items.length)] as T;

const firstNames = [
  'alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory', 'nick',
  'olivia', 'peggy', 'rupert', 'sybil', 'trent', 'victor', 'walter', 'xena', 'yuki', 'zhang', 'li', 'wang',
  'chen', 'liu', 'zhao', 'sun', 'zhou', 'wu', 'kim', 'park', 'lee', 'sato', 'suzuki', 'tanaka', 'maria', 'jose',
  'ahmed', 'fatima',
];
const models = [
  'gpt-4o-mini', 'gpt-4o', 'gpt-3.5-turbo', 'claude-3-5-sonnet-20240620', 'deepseek-chat', 'gemini-1.5-flash',
  'gpt-4-turbo', 'qwen-turbo', 'glm-4', 'claude-3-haiku-20240307', 'text-embedding-3-small', 'moonshot-v1-8k',
  'deepseek-reasoner', 'gemini-1.5-pro', 'ERNIE-4.0-8K', 'qwen-max', 'dall-e-3', 'whisper-1', 'tts-1', 'o1-mini',
];
const providers: readonly (readonly [string, number])[] = [
  ['openai', 1], ['azure', 3], ['claude', 14], ['gemini', 24], ['zhipu', 16], ['ali', 17], ['deepseek', 36],
  ['moonshot', 25], ['baidu', 15], ['proxy', 8],
];
const regions = ['us', 'eu', 'hk', 'jp', 'sg', 'cn'];
const tokenNames = ['default', 'prod', 'dev', 'test', 'cursor', 'chatbox', 'nextchat', 'lobe', 'batch', 'ci', 'mobile', 'web'];
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const day = 86_400;

/** The tables to seed, in insertion order; root (id 1) already exists, seeded users get ids 2…. */
export function seedTables(sizes: SeedSizes, passwordHash: string, now: number): { tables: SeedTable[]; facts: SeedFacts } {
  const usernames: string[] = [];
  {
    const rnd = prng(1);
    const seen = new Set<string>();
    while (usernames.length < sizes.users) {
      const name = `${pick(firstNames, rnd)}_${Math.floor(rnd() * 10_000)}`;
      if (!seen.has(name)) {
        seen.add(name);
        usernames.push(name);
      }
    }
  }
  const userId = (i: number) => i + 2;
  // Users ordered by activity rank: user index 0 is the heaviest.
  const heavyIndex = 0;
  const users: SeedTable = {
    name: 'users',
    columns: [
      { name: 'username', pg: 'text' },
      { name: 'password', pg: 'text' },
      { name: 'display_name', pg: 'text' },
      { name: 'role', pg: 'int' },
      { name: 'status', pg: 'int' },
      { name: 'email', pg: 'text' },
      { name: 'quota', pg: 'bigint' },
      { name: 'used_quota', pg: 'bigint' },
      { name: 'request_count', pg: 'int' },
      { name: 'group', pg: 'text' },
      { name: 'aff_code', pg: 'text' },
      { name: 'inviter_id', pg: 'int' },
    ],
    *rows() {
      const rnd = prng(2);
      for (let i = 0; i < sizes.users; i++) {
        const name = usernames[i] ?? '';
        const status = i === heavyIndex ? 1 : rnd() < 0.9 ? 1 : rnd() < 0.5 ? 2 : 3;
        yield [
          name,
          passwordHash,
          name.replace(/^./, (c) => c.toUpperCase()).replace('_', ' '),
          i < 20 && i !== heavyIndex ? 10 : 1,
          status,
          rnd() < 0.7 ? `${name}@example.com` : '',
          Math.floor(rnd() * 50_000_000),
          Math.floor(rnd() * 20_000_000),
          Math.floor(rnd() * 100_000),
          rnd() < 0.8 ? 'default' : 'vip',
          `a${(i * 7919 + 1000).toString(36)}`,
          rnd() < 0.2 ? userId(Math.floor(rnd() * sizes.users)) : 0,
        ];
      }
    },
  };
  const channelModels = (rnd: () => number) => {
    const set = new Set<string>();
    const n = 2 + Math.floor(rnd() * 6);
    while (set.size < n) set.add(pick(models, rnd));
    return [...set];
  };
  const channelRows: { models: string[]; group: string; priority: number; status: number }[] = [];
  const channels: SeedTable = {
    name: 'channels',
    columns: [
      { name: 'type', pg: 'bigint' },
      { name: 'key', pg: 'text' },
      { name: 'status', pg: 'bigint' },
      { name: 'name', pg: 'text' },
      { name: 'weight', pg: 'bigint' },
      { name: 'created_time', pg: 'bigint' },
      { name: 'models', pg: 'text' },
      { name: 'group', pg: 'text' },
      { name: 'used_quota', pg: 'bigint' },
      { name: 'priority', pg: 'bigint' },
    ],
    *rows() {
      const rnd = prng(3);
      for (let i = 0; i < sizes.channels; i++) {
        const [provider, type] = pick(providers, rnd);
        const ms = channelModels(rnd);
        const group = rnd() < 0.7 ? 'default' : 'default,vip';
        const priority = rnd() < 0.8 ? 0 : Math.floor(rnd() * 10);
        const status = rnd() < 0.9 ? 1 : 2;
        channelRows.push({ models: ms, group, priority, status });
        yield [
          type,
          `sk-${i}-${Math.floor(rnd() * 1e12).toString(36)}`,
          status,
          `${provider}-${pick(regions, rnd)}-${i + 1}`,
          Math.floor(rnd() * 10),
          now - Math.floor(rnd() * 180 * day),
          ms.join(','),
          group,
          Math.floor(rnd() * 1e9),
          priority,
        ];
      }
    },
  };
  const abilities: SeedTable = {
    name: 'abilities',
    columns: [
      { name: 'group', pg: 'text' },
      { name: 'model', pg: 'text' },
      { name: 'channel_id', pg: 'bigint' },
      { name: 'enabled', pg: 'boolean' },
      { name: 'priority', pg: 'bigint' },
    ],
    *rows() {
      for (const [i, c] of channelRows.entries()) {
        for (const group of c.group.split(',')) {
          for (const model of c.models) yield [group, model, i + 1, c.status === 1, c.priority];
        }
      }
    },
  };
  // The heavy user owns a large block of tokens; the rest are spread Zipf-like.
  const heavyUserTokens = Math.min(sizes.tokens, Math.max(1, Math.floor(sizes.tokens / 20)));
  const tokens: SeedTable = {
    name: 'tokens',
    columns: [
      { name: 'user_id', pg: 'bigint' },
      { name: 'key', pg: 'text' },
      { name: 'status', pg: 'bigint' },
      { name: 'name', pg: 'text' },
      { name: 'created_time', pg: 'bigint' },
      { name: 'accessed_time', pg: 'bigint' },
      { name: 'expired_time', pg: 'bigint' },
      { name: 'remain_quota', pg: 'bigint' },
      { name: 'unlimited_quota', pg: 'boolean' },
      { name: 'used_quota', pg: 'bigint' },
      { name: 'subnet', pg: 'text' },
    ],
    *rows() {
      const rnd = prng(4);
      const owner = zipf(sizes.users, 0.8, rnd);
      for (let i = 0; i < sizes.tokens; i++) {
        let key = '';
        for (let k = 0; k < 48; k++) key += alphabet[Math.floor(rnd() * alphabet.length)];
        const created = now - Math.floor(rnd() * 90 * day);
        yield [
          userId(i < heavyUserTokens ? heavyIndex : owner()),
          key,
          rnd() < 0.85 ? 1 : 1 + Math.ceil(rnd() * 3),
          `${pick(tokenNames, rnd)}-${Math.floor(rnd() * 1000)}`,
          created,
          created + Math.floor(rnd() * day * 10),
          rnd() < 0.7 ? -1 : now + Math.floor(rnd() * 90 * day),
          Math.floor(rnd() * 10_000_000),
          rnd() < 0.3,
          Math.floor(rnd() * 5_000_000),
          '',
        ];
      }
    },
  };
  const logs: SeedTable = {
    name: 'logs',
    columns: [
      { name: 'user_id', pg: 'bigint' },
      { name: 'created_at', pg: 'bigint' },
      { name: 'type', pg: 'bigint' },
      { name: 'content', pg: 'text' },
      { name: 'username', pg: 'text' },
      { name: 'token_name', pg: 'text' },
      { name: 'model_name', pg: 'text' },
      { name: 'quota', pg: 'bigint' },
      { name: 'prompt_tokens', pg: 'bigint' },
      { name: 'completion_tokens', pg: 'bigint' },
      { name: 'channel_id', pg: 'bigint' },
      { name: 'request_id', pg: 'text' },
      { name: 'elapsed_time', pg: 'bigint' },
      { name: 'is_stream', pg: 'boolean' },
    ],
    *rows() {
      const rnd = prng(5);
      const user = zipf(sizes.users, 1.0, rnd);
      const model = zipf(models.length, 1.1, rnd);
      const channel = zipf(sizes.channels, 0.9, rnd);
      const start = now - 90 * day;
      const step = (90 * day) / sizes.logs;
      for (let i = 0; i < sizes.logs; i++) {
        const u = user();
        const created = Math.floor(start + i * step);
        const r = rnd();
        const type = r < 0.86 ? 2 : r < 0.89 ? 1 : r < 0.93 ? 3 : r < 0.97 ? 4 : 5;
        const m = models[model()] ?? '';
        const prompt = Math.floor(rnd() * 4000);
        const completion = Math.floor(rnd() * 1500);
        const quota = type === 2 ? Math.floor((prompt + completion * 2) * (0.5 + rnd() * 10)) : 0;
        const content =
          type === 2
            ? `模型倍率 ${(rnd() * 15).toFixed(2)}，分组倍率 1.00，补全倍率 ${(1 + rnd() * 3).toFixed(2)}`
            : type === 1
              ? `通过兑换码充值 ＄${(rnd() * 100).toFixed(2)} 额度`
              : type === 3
                ? `管理员将用户额度从 ＄${(rnd() * 100).toFixed(2)} 额度修改为 ＄${(rnd() * 100).toFixed(2)} 额度`
                : type === 4
                  ? `用户注册，赠送 ＄${(rnd() * 10).toFixed(2)} 额度`
                  : `渠道 #${channel() + 1} 测试成功，耗时 ${(rnd() * 5).toFixed(2)} 秒`;
        yield [
          userId(u),
          created,
          type,
          content,
          usernames[u] ?? '',
          type === 2 || type === 5 ? `${pick(tokenNames, rnd)}-${Math.floor(rnd() * 30)}` : '',
          type === 2 || type === 5 ? m : '',
          quota,
          type === 2 ? prompt : 0,
          type === 2 ? completion : 0,
          type === 2 || type === 5 ? channel() + 1 : 0,
          `2024${String(i).padStart(16, '0')}`,
          type === 2 ? Math.floor(rnd() * 30_000) : 0,
          type === 2 && rnd() < 0.6,
        ];
      }
    },
  };
  const facts: SeedFacts = {
    heavyUser: { id: userId(heavyIndex), username: usernames[heavyIndex] ?? '', password: 'bench-password' },
    heavyUserTokens,
    someUsername: usernames[Math.min(sizes.users - 1, 50)] ?? '',
    popularModel: models[0] ?? '',
    rareModel: models[12] ?? '',
    tokenName: 'cursor-7',
    userKeyword: `${(usernames[Math.min(sizes.users - 1, 7)] ?? '').split('_')[0] ?? ''}_1`,
    tokenKeyword: 'chatbox-1',
    channelKeyword: 'azure-eu',
    logKeyword: '通过兑换码',
    now,
  };
  return { tables: [users, channels, abilities, tokens, logs], facts };
}

/** Seeds SQLite at `path` in one transaction, one prepared statement per table; returns row counts. */
export function seedSqlite(path: string, tables: readonly SeedTable[]): Map<string, number> {
  const db = new BetterSqlite3(path);
  const counts = new Map<string, number>();
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -524288'); // 512 MB: index pages stay in memory during the bulk load
    db.transaction(() => {
      for (const table of tables) {
        const cols = table.columns.map((c) => `"${c.name}"`).join(', ');
        const stmt = db.prepare(`insert into "${table.name}" (${cols}) values (${table.columns.map(() => '?').join(', ')})`);
        let n = 0;
        for (const row of table.rows()) {
          stmt.run(...row.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v)));
          n++;
        }
        counts.set(table.name, n);
      }
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return counts;
}

/** Rows per `INSERT … SELECT FROM unnest(…)` on PostgreSQL. */
const pgBatch = 20_000;

/** Seeds PostgreSQL in one transaction with batched unnest inserts; returns row counts. */
export async function seedPostgres(dsn: string, tables: readonly SeedTable[]): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: dsn });
  await client.connect();
  const counts = new Map<string, number>();
  try {
    await client.query('begin');
    for (const table of tables) {
      const cols = table.columns.map((c) => `"${c.name}"`).join(', ');
      const params = table.columns.map((c, i) => `$${i + 1}::${c.pg}[]`).join(', ');
      const text = `insert into "${table.name}" (${cols}) select * from unnest(${params})`;
      let batch: unknown[][] = table.columns.map(() => []);
      let n = 0;
      const flush = async () => {
        if ((batch[0]?.length ?? 0) === 0) return;
        await client.query(text, batch);
        batch = table.columns.map(() => []);
      };
      for (const row of table.rows()) {
        row.forEach((v, i) => batch[i]?.push(v));
        n++;
        if (n % pgBatch === 0) await flush();
      }
      await flush();
      counts.set(table.name, n);
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    await client.end();
  }
  return counts;
}
