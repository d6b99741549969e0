import type { Kysely } from 'kysely';
import { parseRatioMap, type RatioMap } from '../../src/domain/ratioPrices';
import { precompile } from '../db/precompiled';
import type { Database } from '../db/schema';
import { TurnReads } from '../db/turnReads';
import { keptGeneration } from './callerCache';
import { optionValues, readOptions } from '../services/options';

/**
 * What the relay reads from the options table on every request: the billing options, the three
 * ratio tables (parsed once per distinct text) and the retry and channel-disabling options, in
 * one query, cached on SQLite while the options table is unchanged (see ChangeWatch), and on
 * PostgreSQL with Redis until an option change is announced (see services/clusterSync.ts).
 */

type Db = Kysely<Database>;

/** The options billing reads on every request (besides the ratio tables). */
export interface BillingSettings {
  /** LogConsumeEnabled: write consume logs. */
  readonly logConsumeEnabled: boolean;
  /** QuotaRemindThreshold: the user quota under which a reminder e-mail goes out. */
  readonly quotaRemindThreshold: number;
}

/** Everything the relay reads from the options table, in one query. */
export interface RelaySettings extends BillingSettings {
  readonly modelRatio: RatioMap;
  readonly groupRatio: RatioMap;
  readonly completionRatio: RatioMap;
  /** PreConsumedQuota (default 500). */
  readonly preConsumedQuota: number;
  /** ApproximateTokenEnabled: count prompt tokens approximately. */
  readonly approximateTokenEnabled: boolean;
  /** RetryTimes (default 0). */
  readonly retryTimes: number;
  /** AutomaticDisableChannelEnabled (contract §4.9). */
  readonly automaticDisableChannelEnabled: boolean;
}

const relayOptionKeys = [
  'ModelRatio',
  'GroupRatio',
  'CompletionRatio',
  'PreConsumedQuota',
  'LogConsumeEnabled',
  'QuotaRemindThreshold',
  'ApproximateTokenEnabled',
  'RetryTimes',
  'AutomaticDisableChannelEnabled',
] as const;

/** Parsed ratio tables by their JSON text: a table is parsed once, not per request. */
const parsedTables = new Map<string, RatioMap>();
/** Distinct texts kept (the configured and default texts of three options, plus edits). */
const parsedTablesLimit = 16;

/** The ratio table of an option's JSON text ({} when the text is not a JSON object of numbers). */
export function ratioTable(text: string): RatioMap {
  const cached = parsedTables.get(text);
  if (cached !== undefined) return cached;
  const table = parseRatioMap(text) ?? {};
  if (parsedTables.size >= parsedTablesLimit) parsedTables.clear();
  parsedTables.set(text, table);
  return table;
}

/** The relay's options query (the keys are constants: compiled once). */
const relayOptionsQuery = precompile(0, (db: Db) => db.selectFrom('options').select(['key', 'value']).where('key', 'in', [...relayOptionKeys]));

/** The last settings read per database, with the options table's generation they were read at. */
const settingsCache = new WeakMap<Db, { readonly generation: string; readonly settings: RelaySettings }>();

/**
 * The relay's options (missing rows take the defaults): read in one query, or on SQLite taken
 * from memory while the options table is unchanged (checked on every call, by anyone's writes:
 * see ChangeWatch), which saves reading the three ratio tables' JSON on every request.
 */
export async function relaySettings(db: Db): Promise<RelaySettings> {
  const generation = keptGeneration(db, 'options');
  const cached = settingsCache.get(db);
  if (generation !== undefined && cached?.generation === generation) return cached.settings;
  const settings = await settingsReads.run(db, '');
  if (generation !== undefined) settingsCache.set(db, { generation, settings });
  return settings;
}

/** PostgreSQL: the requests of one turn share one read of the options (see TurnReads). */
const settingsReads = new TurnReads<RelaySettings>((db) => readRelaySettings(db));

/** Reads the relay's options in one query. */
async function readRelaySettings(db: Db): Promise<RelaySettings> {
  const rows = await relayOptionsQuery.rows(db);
  const o = optionValues(new Map(rows.map((r) => [r.key, r.value ?? ''])));
  return {
    modelRatio: ratioTable(o.str('ModelRatio')),
    groupRatio: ratioTable(o.str('GroupRatio')),
    completionRatio: ratioTable(o.str('CompletionRatio')),
    preConsumedQuota: Math.trunc(o.num('PreConsumedQuota')),
    logConsumeEnabled: o.bool('LogConsumeEnabled'),
    quotaRemindThreshold: Math.trunc(o.num('QuotaRemindThreshold')),
    approximateTokenEnabled: o.bool('ApproximateTokenEnabled'),
    retryTimes: Math.trunc(o.num('RetryTimes')),
    automaticDisableChannelEnabled: o.bool('AutomaticDisableChannelEnabled'),
  };
}

/** The billing options, read when the caller did not pass them. */
export async function billingSettings(db: Db): Promise<BillingSettings> {
  const o = await readOptions(db, ['LogConsumeEnabled', 'QuotaRemindThreshold']);
  return { logConsumeEnabled: o.bool('LogConsumeEnabled'), quotaRemindThreshold: Math.trunc(o.num('QuotaRemindThreshold')) };
}
