import Database from 'better-sqlite3';

/**
 * A SQLite database shaped the way one-api (GORM 1.25 + the sqlite driver) creates it with
 * AutoMigrate, filled with a little data. Written by hand from the facts of contract §3.1 and
 * GORM's documented migration behaviour, not copied from any source. Assumptions:
 *
 * - One `CREATE TABLE` per model; identifiers back-quoted; columns in struct field order,
 *   separated by `,` without spaces; indexes created afterwards with separate statements
 *   (`CREATE [UNIQUE] INDEX \`idx_<table>_<column>\` ON \`<table>\`(\`col\`)`).
 * - Types: Go `int` primary key → `integer PRIMARY KEY AUTOINCREMENT`; Go `int`/`int64`/`uint`
 *   without a type tag → `integer`; a `type:` tag is written verbatim (`int`, `char(32)`,
 *   `varchar(32)`, `varchar(1024)`, `text`); Go `string` → `text`; `bool` → `numeric`;
 *   `float64` → `real`.
 * - `unique` tag → inline `UNIQUE` (SQLite then adds `sqlite_autoindex_users_1`); `not null` →
 *   `NOT NULL`; `default:x` → `DEFAULT x`; composite primary keys → trailing
 *   `PRIMARY KEY (\`a\`,\`b\`,...)`.
 * - Rows as GORM inserts them: Go zero values written explicitly ("" / 0), except fields with a
 *   default tag whose value is zero (left to the DB default). Booleans are stored as 0/1.
 * - Passwords are Go bcrypt hashes (`$2a$10$...`).
 */

export const gormDdl: readonly string[] = [
  'CREATE TABLE `channels` (`id` integer PRIMARY KEY AUTOINCREMENT,`type` integer DEFAULT 0,`key` text,`status` integer DEFAULT 1,`name` text,`weight` integer DEFAULT 0,`created_time` integer,`test_time` integer,`response_time` integer,`base_url` text DEFAULT \'\',`other` text,`balance` real,`balance_updated_time` integer,`models` text,`group` varchar(32) DEFAULT \'default\',`used_quota` integer DEFAULT 0,`model_mapping` varchar(1024) DEFAULT \'\',`priority` integer DEFAULT 0,`config` text,`system_prompt` text)',
  'CREATE INDEX `idx_channels_name` ON `channels`(`name`)',
  'CREATE TABLE `tokens` (`id` integer PRIMARY KEY AUTOINCREMENT,`user_id` integer,`key` char(48),`status` integer DEFAULT 1,`name` text,`created_time` integer,`accessed_time` integer,`expired_time` integer DEFAULT -1,`remain_quota` integer DEFAULT 0,`unlimited_quota` numeric DEFAULT false,`used_quota` integer DEFAULT 0,`models` text,`subnet` text DEFAULT \'\')',
  'CREATE UNIQUE INDEX `idx_tokens_key` ON `tokens`(`key`)',
  'CREATE INDEX `idx_tokens_name` ON `tokens`(`name`)',
  'CREATE TABLE `users` (`id` integer PRIMARY KEY AUTOINCREMENT,`username` text UNIQUE,`password` text NOT NULL,`display_name` text,`role` int DEFAULT 1,`status` int DEFAULT 1,`email` text,`github_id` text,`wechat_id` text,`lark_id` text,`oidc_id` text,`access_token` char(32),`quota` integer DEFAULT 0,`used_quota` integer DEFAULT 0,`request_count` int DEFAULT 0,`group` varchar(32) DEFAULT \'default\',`aff_code` varchar(32),`inviter_id` int)',
  'CREATE INDEX `idx_users_username` ON `users`(`username`)',
  'CREATE INDEX `idx_users_display_name` ON `users`(`display_name`)',
  'CREATE INDEX `idx_users_email` ON `users`(`email`)',
  'CREATE INDEX `idx_users_github_id` ON `users`(`github_id`)',
  'CREATE INDEX `idx_users_wechat_id` ON `users`(`wechat_id`)',
  'CREATE INDEX `idx_users_lark_id` ON `users`(`lark_id`)',
  'CREATE INDEX `idx_users_oidc_id` ON `users`(`oidc_id`)',
  'CREATE UNIQUE INDEX `idx_users_access_token` ON `users`(`access_token`)',
  'CREATE UNIQUE INDEX `idx_users_aff_code` ON `users`(`aff_code`)',
  'CREATE INDEX `idx_users_inviter_id` ON `users`(`inviter_id`)',
  'CREATE TABLE `options` (`key` text,`value` text,PRIMARY KEY (`key`))',
  'CREATE TABLE `redemptions` (`id` integer PRIMARY KEY AUTOINCREMENT,`user_id` integer,`key` char(32),`status` integer DEFAULT 1,`name` text,`quota` integer DEFAULT 100,`created_time` integer,`redeemed_time` integer)',
  'CREATE UNIQUE INDEX `idx_redemptions_key` ON `redemptions`(`key`)',
  'CREATE INDEX `idx_redemptions_name` ON `redemptions`(`name`)',
  'CREATE TABLE `abilities` (`group` varchar(32),`model` text,`channel_id` integer,`enabled` numeric,`priority` integer DEFAULT 0,PRIMARY KEY (`group`,`model`,`channel_id`))',
  'CREATE INDEX `idx_abilities_channel_id` ON `abilities`(`channel_id`)',
  'CREATE INDEX `idx_abilities_priority` ON `abilities`(`priority`)',
  'CREATE TABLE `logs` (`id` integer PRIMARY KEY AUTOINCREMENT,`user_id` integer,`created_at` integer,`type` integer,`content` text,`username` text DEFAULT \'\',`token_name` text DEFAULT \'\',`model_name` text DEFAULT \'\',`quota` integer DEFAULT 0,`prompt_tokens` integer DEFAULT 0,`completion_tokens` integer DEFAULT 0,`channel_id` integer,`request_id` text DEFAULT \'\',`elapsed_time` integer DEFAULT 0,`is_stream` numeric DEFAULT false,`system_prompt_reset` numeric DEFAULT false)',
  'CREATE INDEX `idx_logs_user_id` ON `logs`(`user_id`)',
  'CREATE INDEX `idx_created_at_type` ON `logs`(`created_at`,`type`)',
  'CREATE INDEX `index_username_model_name` ON `logs`(`model_name`,`username`)',
  'CREATE INDEX `idx_logs_token_name` ON `logs`(`token_name`)',
  'CREATE INDEX `idx_logs_model_name` ON `logs`(`model_name`)',
  'CREATE INDEX `idx_logs_channel_id` ON `logs`(`channel_id`)',
];

/** Root's password in the fixture and its Go bcrypt hash. */
export const fixtureRootPassword = 'gorm-root-pass';
export const fixtureRootHash = '$2a$10$i/UZ62K6.ewvMqTCTbM2Hu4Vm3Xelt9T6r5Hpgia9y57anYJ9O3uy';
/** A second user, logging in by e-mail, with the hash of `secret-pass-1`. */
export const fixtureUserHash = '$2a$10$5vK/hjfM4gR.bY.BSJcvxe8f21lMwrb6T/r0S5X8fOqbb4wtzsnu6';

const gormRows: readonly string[] = [
  // root: aff_code "" as one-api's bootstrap leaves it; other zero values written explicitly.
  "INSERT INTO `users` (`username`,`password`,`display_name`,`role`,`status`,`email`,`github_id`,`wechat_id`,`lark_id`,`oidc_id`,`access_token`,`quota`,`aff_code`,`inviter_id`) VALUES ('root','$ROOT_HASH','Root User',100,1,'','','','','','0123456789abcdef0123456789abcdef',500000000000000,'',0)",
  // a user from an older one-api: lark_id/oidc_id never written (NULL).
  "INSERT INTO `users` (`username`,`password`,`display_name`,`role`,`status`,`email`,`github_id`,`wechat_id`,`access_token`,`quota`,`used_quota`,`request_count`,`group`,`aff_code`,`inviter_id`) VALUES ('alice','$USER_HASH','Alice',1,1,'alice@example.com','','','fedcba9876543210fedcba9876543210',1234,56,7,'vip','Ab12',1)",
  "INSERT INTO `tokens` (`user_id`,`key`,`name`,`created_time`,`accessed_time`,`remain_quota`,`unlimited_quota`,`used_quota`,`models`,`subnet`) VALUES (2,'abcdefghijklmnop0123456789ABCDEF0123456789abcdef','default',1708000000,1708000500,0,1,0,NULL,'')",
  "INSERT INTO `channels` (`type`,`key`,`name`,`created_time`,`test_time`,`response_time`,`other`,`balance`,`balance_updated_time`,`models`,`group`,`config`) VALUES (1,'sk-upstream','openai-main',1708000000,0,0,'',0,0,'gpt-4o,gpt-4o-mini','default,vip','')",
  "INSERT INTO `abilities` (`group`,`model`,`channel_id`,`enabled`,`priority`) VALUES ('default','gpt-4o',1,1,0),('default','gpt-4o-mini',1,1,0),('vip','gpt-4o',1,1,0),('vip','gpt-4o-mini',1,1,0)",
  "INSERT INTO `redemptions` (`user_id`,`key`,`name`,`quota`,`created_time`,`redeemed_time`) VALUES (1,'0f3c0f3c0f3c0f3c0f3c0f3c0f3c0f3c','promo',100000,1708000000,0)",
  "INSERT INTO `logs` (`user_id`,`created_at`,`type`,`content`,`username`,`token_name`,`model_name`,`quota`,`prompt_tokens`,`completion_tokens`,`channel_id`,`request_id`,`elapsed_time`,`is_stream`) VALUES (2,1708000000,2,'倍率：2.50 × 1.00 × 4.00','alice','default','gpt-4o',2713,21,266,1,'2025022119301612345678991234567',2310,1)",
  "INSERT INTO `options` (`key`,`value`) VALUES ('SystemName','My Gateway'),('QuotaPerUnit','1000'),('GroupRatio','{\"default\":1,\"vip\":2}')",
];

export interface GormFixtureOptions {
  /** Drop these `table.column`s from the DDL (simulating an older one-api release). */
  readonly withoutColumns?: readonly string[];
  /** Leave out these indexes. */
  readonly withoutIndexes?: readonly string[];
  /** Extra DDL run after the tables (e.g. a column a newer one-api added). */
  readonly extraDdl?: readonly string[];
}

/** Removes one column definition from a CREATE TABLE statement. */
function dropColumn(ddl: string, column: string): string {
  return ddl.replace(new RegExp(`,\`${column}\` .*?(?=,\`|,PRIMARY KEY|\\)$)`), '');
}

/** The DDL with the requested omissions applied. */
function fixtureDdl(options: GormFixtureOptions): string[] {
  const without = options.withoutColumns ?? [];
  const skippedIndexes = new Set(options.withoutIndexes ?? []);
  return gormDdl
    .filter((ddl) => ![...skippedIndexes].some((name) => ddl.includes(`INDEX \`${name}\``)))
    .map((ddl) =>
      without.reduce((text, spec) => {
        const [table, column] = spec.split('.') as [string, string];
        return text.startsWith(`CREATE TABLE \`${table}\``) ? dropColumn(text, column) : text;
      }, ddl),
    );
}

/** Creates the one-api-shaped database file at `path`. Rows referring to omitted columns must not be requested. */
export function createGormSqlite(path: string, options: GormFixtureOptions = {}): void {
  const db = new Database(path);
  try {
    for (const statement of [...fixtureDdl(options), ...(options.extraDdl ?? [])]) db.exec(statement);
    for (const row of gormRows) {
      db.exec(row.replace('$ROOT_HASH', () => fixtureRootHash).replace('$USER_HASH', () => fixtureUserHash));
    }
  } finally {
    db.close();
  }
}

/** The `sql` text of every table and index, as SQLite stores it. */
export function sqliteMaster(path: string): Map<string, string | null> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare('select name, sql from sqlite_master order by name').all() as { name: string; sql: string | null }[];
    return new Map(rows.map((r) => [r.name, r.sql]));
  } finally {
    db.close();
  }
}
