import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * one-api's tables (contract §3.1) as Kysely types, plus the declarative table specs the
 * migrations create. Names, column types, defaults and index names follow what one-api's ORM
 * (GORM 1.25) writes, per dialect, so that a database created by one-api opens here and a
 * database created here stays usable by one-api.
 *
 * Column typing: `Defaulted<T>` columns have a database default (optional on insert, never
 * NULL in practice); `Nullable<T>` columns have none and can hold NULL (one-api's ORM columns
 * are nullable, and rows written by older one-api versions do contain NULLs), so readers must
 * coalesce. Booleans are real booleans on both dialects (connect.ts maps SQLite's 0/1).
 */

/** A column with a database default. */
export type Defaulted<T> = ColumnType<T, T | undefined, T>;
/** A nullable column without default. */
export type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface UsersTable {
  id: Generated<number>;
  username: Nullable<string>;
  password: string;
  display_name: Nullable<string>;
  role: Defaulted<number>;
  status: Defaulted<number>;
  email: Nullable<string>;
  github_id: Nullable<string>;
  wechat_id: Nullable<string>;
  lark_id: Nullable<string>;
  oidc_id: Nullable<string>;
  access_token: Nullable<string>;
  quota: Defaulted<number>;
  used_quota: Defaulted<number>;
  request_count: Defaulted<number>;
  group: Defaulted<string>;
  aff_code: Nullable<string>;
  inviter_id: Nullable<number>;
}

export interface TokensTable {
  id: Generated<number>;
  user_id: Nullable<number>;
  key: Nullable<string>;
  status: Defaulted<number>;
  name: Nullable<string>;
  created_time: Nullable<number>;
  accessed_time: Nullable<number>;
  expired_time: Defaulted<number>;
  remain_quota: Defaulted<number>;
  unlimited_quota: Defaulted<boolean>;
  used_quota: Defaulted<number>;
  models: Nullable<string>;
  subnet: Defaulted<string | null>;
}

export interface ChannelsTable {
  id: Generated<number>;
  type: Defaulted<number>;
  key: Nullable<string>;
  status: Defaulted<number>;
  name: Nullable<string>;
  weight: Defaulted<number | null>;
  created_time: Nullable<number>;
  test_time: Nullable<number>;
  response_time: Nullable<number>;
  base_url: Defaulted<string | null>;
  other: Nullable<string>;
  balance: Nullable<number>;
  balance_updated_time: Nullable<number>;
  models: Nullable<string>;
  group: Defaulted<string>;
  used_quota: Defaulted<number>;
  model_mapping: Defaulted<string | null>;
  priority: Defaulted<number | null>;
  config: Nullable<string>;
  system_prompt: Nullable<string>;
}

export interface AbilitiesTable {
  group: string;
  model: string;
  channel_id: number;
  enabled: Nullable<boolean>;
  priority: Defaulted<number | null>;
}

export interface RedemptionsTable {
  id: Generated<number>;
  user_id: Nullable<number>;
  key: Nullable<string>;
  status: Defaulted<number>;
  name: Nullable<string>;
  quota: Defaulted<number>;
  created_time: Nullable<number>;
  redeemed_time: Nullable<number>;
}

export interface LogsTable {
  id: Generated<number>;
  user_id: Nullable<number>;
  created_at: Nullable<number>;
  type: Nullable<number>;
  content: Nullable<string>;
  username: Defaulted<string>;
  token_name: Defaulted<string>;
  model_name: Defaulted<string>;
  quota: Defaulted<number>;
  prompt_tokens: Defaulted<number>;
  completion_tokens: Defaulted<number>;
  channel_id: Nullable<number>;
  request_id: Defaulted<string>;
  elapsed_time: Defaulted<number>;
  is_stream: Defaulted<boolean>;
  system_prompt_reset: Defaulted<boolean>;
}

export interface OptionsTable {
  key: string;
  value: Nullable<string>;
}

/** Our own table (one-api keeps sessions in the cookie): server-side login sessions. Times in Unix seconds. */
export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  last_seen_at: number;
  /** OAuth `state` issued by GET /api/oauth/state (user_id 0 = anonymous session holding only a state). */
  oauth_state: Nullable<string>;
}

/** Our own table (one-api keeps codes in memory): e-mail codes and reset tokens, hashed. Times in Unix seconds. */
export interface VerificationCodesTable {
  purpose: string;
  email: string;
  code_hash: string;
  created_at: number;
  attempts: Defaulted<number>;
}

/**
 * Our own table (PostgreSQL only): the relay gateways that share the database, each with a lease
 * it renews while it runs (server/relay/reservationLedger.ts). Times are epoch milliseconds of
 * the database's clock.
 */
export interface RelayInstancesTable {
  id: string;
  host: string;
  port: number;
  pid: number;
  started_at: number;
  renewed_at: number;
  lease_until: number;
}

/**
 * Our own table (PostgreSQL only): every relay reservation taken from a user and a token and not
 * yet settled or refunded, so that a gateway that stops without settling it can be found out and
 * the reservation given back (server/relay/reservationLedger.ts).
 */
export interface RelayReservationsTable {
  id: Generated<number>;
  instance_id: string;
  user_id: number;
  token_id: number;
  amount: number;
  created_at: number;
}

/** Our own table (server/db/migrations/twoFactor.ts): a user's TOTP secret. Times in Unix seconds. */
export interface UserTotpTable {
  user_id: number;
  secret: string;
  /** Null until a code confirmed the enrolment. */
  enabled_at: Nullable<number>;
  created_at: number;
  /** The last TOTP time step accepted (each step is usable once). */
  last_step: Defaulted<number>;
}

/** Our own table: one-time recovery codes, SHA-256 hex. */
export interface UserRecoveryCodesTable {
  user_id: number;
  code_hash: string;
  created_at: number;
  used_at: Nullable<number>;
}

/** Our own table: a password login waiting for its second factor. */
export interface LoginChallengesTable {
  id: string;
  user_id: number;
  /** The password hash when the password was checked: a change meanwhile voids the challenge. */
  password_hash: string;
  created_at: number;
  expires_at: number;
  attempts: Defaulted<number>;
}

/** Our own table (server/db/migrations/testRuns.ts): one batch channel test run. */
export interface ChannelTestRunsTable {
  id: Generated<number>;
  scope: string;
  /** `running`, `finished` or `cancelled` (at most one `running`). */
  status: string;
  /** Unix seconds. */
  started_at: number;
  /** Unix seconds; 0 while running. */
  finished_at: Defaulted<number>;
  /** JSON array of the channel ids in test order. */
  channel_ids: Defaulted<string>;
  /** Id of the gateway process executing the run. */
  executor: string;
  /** Epoch ms of the executor's last heartbeat. */
  heartbeat_at: number;
  /** 1 once someone asked to cancel. */
  cancel_requested: Defaulted<number>;
  /** 1 when the run ended because its executor stopped sending heartbeats. */
  interrupted: Defaulted<number>;
}

/** Our own table: one tested channel of a run. */
export interface ChannelTestRunResultsTable {
  run_id: number;
  idx: number;
  channel_id: number;
  /** 1 or 0. */
  success: number;
  message: string;
  model: string;
  status: number;
  response_time: number;
  test_time: number;
}

/** Our own table (server/db/migrations/channelTags.ts): one row per tag of a channel. */
export interface ChannelTagsTable {
  channel_id: number;
  tag: string;
}

export interface Database {
  users: UsersTable;
  tokens: TokensTable;
  channels: ChannelsTable;
  abilities: AbilitiesTable;
  redemptions: RedemptionsTable;
  logs: LogsTable;
  options: OptionsTable;
  sessions: SessionsTable;
  verification_codes: VerificationCodesTable;
  oa_relay_instances: RelayInstancesTable;
  oa_relay_reservations: RelayReservationsTable;
  oa_user_totp: UserTotpTable;
  oa_user_recovery_codes: UserRecoveryCodesTable;
  oa_login_challenges: LoginChallengesTable;
  oa_channel_test_runs: ChannelTestRunsTable;
  oa_channel_test_run_results: ChannelTestRunResultsTable;
  oa_channel_tags: ChannelTagsTable;
}

/** The tables of `tableSpecs` (one-api's and the sessions/codes tables). */
export type TableName = Exclude<
  keyof Database,
  | 'oa_relay_instances'
  | 'oa_relay_reservations'
  | 'oa_user_totp'
  | 'oa_user_recovery_codes'
  | 'oa_login_challenges'
  | 'oa_channel_test_runs'
  | 'oa_channel_test_run_results'
  | 'oa_channel_tags'
>;
export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type TokenRow = Selectable<TokensTable>;
export type ChannelRow = Selectable<ChannelsTable>;
export type AbilityRow = Selectable<AbilitiesTable>;
export type RedemptionRow = Selectable<RedemptionsTable>;
export type LogRow = Selectable<LogsTable>;
export type OptionRow = Selectable<OptionsTable>;
export type SessionRow = Selectable<SessionsTable>;

// ---------------------------------------------------------------------------------------------
// Declarative specs for the migrations.

export type Dialect = 'sqlite' | 'postgres';

/** One column: the type GORM writes on each dialect, plus constraints. */
export interface ColumnSpec {
  readonly name: string;
  readonly sqlite: string;
  readonly postgres: string;
  readonly notNull?: boolean;
  /** Column-level UNIQUE (GORM's `unique` tag). */
  readonly unique?: boolean;
  /** SQL literal of the default, e.g. `1`, `'default'`, `false`. */
  readonly default?: string;
  /** Single-column auto-increment primary key. */
  readonly autoId?: boolean;
  /** Single-column primary key without auto-increment. */
  readonly primaryKey?: boolean;
}

export interface IndexSpec {
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique?: boolean;
}

export interface TableSpec {
  readonly name: TableName;
  readonly columns: readonly ColumnSpec[];
  /** Composite primary key. */
  readonly primaryKey?: readonly string[];
  readonly indexes: readonly IndexSpec[];
}

/** GORM's `int` on 64-bit Go (no explicit type tag): `integer` on SQLite, `bigint` on PostgreSQL. */
const goInt = { sqlite: 'integer', postgres: 'bigint' } as const;
/** An explicit `type:int` tag, written verbatim. */
const tagInt = { sqlite: 'int', postgres: 'int' } as const;
const text = { sqlite: 'text', postgres: 'text' } as const;
const bool = { sqlite: 'numeric', postgres: 'boolean' } as const;
const raw = (type: string) => ({ sqlite: type, postgres: type });

const id: ColumnSpec = { name: 'id', sqlite: 'integer', postgres: 'bigserial', autoId: true };
/** Shorthand for a column spec. */
const col = (name: string, types: { sqlite: string; postgres: string }, extra: Partial<ColumnSpec> = {}): ColumnSpec => ({
  name,
  ...types,
  ...extra,
});
/** GORM's default single-column index name `idx_<table>_<column>`. */
const idx = (table: string, column: string, unique = false): IndexSpec => ({
  name: `idx_${table}_${column}`,
  columns: [column],
  unique,
});

export const tableSpecs: readonly TableSpec[] = [
  {
    name: 'users',
    columns: [
      id,
      col('username', text, { unique: true }),
      col('password', text, { notNull: true }),
      col('display_name', text),
      col('role', tagInt, { default: '1' }),
      col('status', tagInt, { default: '1' }),
      col('email', text),
      col('github_id', text),
      col('wechat_id', text),
      col('lark_id', text),
      col('oidc_id', text),
      col('access_token', raw('char(32)')),
      col('quota', goInt, { default: '0' }),
      col('used_quota', goInt, { default: '0' }),
      col('request_count', tagInt, { default: '0' }),
      col('group', raw('varchar(32)'), { default: "'default'" }),
      col('aff_code', raw('varchar(32)')),
      col('inviter_id', tagInt),
    ],
    indexes: [
      idx('users', 'username'),
      idx('users', 'display_name'),
      idx('users', 'email'),
      idx('users', 'github_id'),
      idx('users', 'wechat_id'),
      idx('users', 'lark_id'),
      idx('users', 'oidc_id'),
      idx('users', 'access_token', true),
      idx('users', 'aff_code', true),
      idx('users', 'inviter_id'),
    ],
  },
  {
    name: 'tokens',
    columns: [
      id,
      col('user_id', goInt),
      col('key', raw('char(48)')),
      col('status', goInt, { default: '1' }),
      col('name', text),
      col('created_time', goInt),
      col('accessed_time', goInt),
      col('expired_time', goInt, { default: '-1' }),
      col('remain_quota', goInt, { default: '0' }),
      col('unlimited_quota', bool, { default: 'false' }),
      col('used_quota', goInt, { default: '0' }),
      col('models', text),
      col('subnet', text, { default: "''" }),
    ],
    indexes: [idx('tokens', 'key', true), idx('tokens', 'name')],
  },
  {
    name: 'channels',
    columns: [
      id,
      col('type', goInt, { default: '0' }),
      col('key', text),
      col('status', goInt, { default: '1' }),
      col('name', text),
      col('weight', goInt, { default: '0' }),
      col('created_time', goInt),
      col('test_time', goInt),
      col('response_time', goInt),
      col('base_url', text, { default: "''" }),
      col('other', text),
      col('balance', { sqlite: 'real', postgres: 'decimal' }),
      col('balance_updated_time', goInt),
      col('models', text),
      col('group', raw('varchar(32)'), { default: "'default'" }),
      col('used_quota', goInt, { default: '0' }),
      col('model_mapping', raw('varchar(1024)'), { default: "''" }),
      col('priority', goInt, { default: '0' }),
      col('config', text),
      col('system_prompt', text),
    ],
    indexes: [idx('channels', 'name')],
  },
  {
    name: 'abilities',
    columns: [
      col('group', raw('varchar(32)')),
      col('model', text),
      col('channel_id', goInt),
      col('enabled', bool),
      col('priority', goInt, { default: '0' }),
    ],
    primaryKey: ['group', 'model', 'channel_id'],
    indexes: [idx('abilities', 'channel_id'), idx('abilities', 'priority')],
  },
  {
    name: 'redemptions',
    columns: [
      id,
      col('user_id', goInt),
      col('key', raw('char(32)')),
      col('status', goInt, { default: '1' }),
      col('name', text),
      col('quota', goInt, { default: '100' }),
      col('created_time', goInt),
      col('redeemed_time', goInt),
    ],
    indexes: [idx('redemptions', 'key', true), idx('redemptions', 'name')],
  },
  {
    name: 'logs',
    columns: [
      id,
      col('user_id', goInt),
      col('created_at', goInt),
      col('type', goInt),
      col('content', text),
      col('username', text, { default: "''" }),
      col('token_name', text, { default: "''" }),
      col('model_name', text, { default: "''" }),
      col('quota', goInt, { default: '0' }),
      col('prompt_tokens', goInt, { default: '0' }),
      col('completion_tokens', goInt, { default: '0' }),
      col('channel_id', goInt),
      col('request_id', text, { default: "''" }),
      col('elapsed_time', goInt, { default: '0' }),
      col('is_stream', bool, { default: 'false' }),
      col('system_prompt_reset', bool, { default: 'false' }),
    ],
    indexes: [
      idx('logs', 'user_id'),
      { name: 'idx_created_at_type', columns: ['created_at', 'type'] },
      { name: 'index_username_model_name', columns: ['model_name', 'username'] },
      idx('logs', 'token_name'),
      idx('logs', 'model_name'),
      idx('logs', 'channel_id'),
    ],
  },
  {
    name: 'options',
    columns: [col('key', text, { primaryKey: true }), col('value', text)],
    indexes: [],
  },
  {
    name: 'sessions',
    columns: [
      col('id', text, { primaryKey: true }),
      col('user_id', goInt, { notNull: true }),
      col('created_at', goInt, { notNull: true }),
      col('expires_at', goInt, { notNull: true }),
      col('last_seen_at', goInt, { notNull: true }),
      col('oauth_state', text),
    ],
    indexes: [idx('sessions', 'user_id'), idx('sessions', 'expires_at')],
  },
  {
    name: 'verification_codes',
    columns: [
      col('purpose', text, { notNull: true }),
      col('email', text, { notNull: true }),
      col('code_hash', text, { notNull: true }),
      col('created_at', goInt, { notNull: true }),
      col('attempts', goInt, { notNull: true, default: '0' }),
    ],
    primaryKey: ['purpose', 'email'],
    indexes: [],
  },
];

/** Columns holding booleans (SQLite stores them as 0/1 in `numeric` columns). */
export const booleanColumns: ReadonlySet<string> = new Set(
  tableSpecs.flatMap((t) => t.columns.filter((c) => c.sqlite === 'numeric').map((c) => c.name)),
);
