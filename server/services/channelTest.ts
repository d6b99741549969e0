import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/Either';
import type { Kysely } from 'kysely';
import { channelStatusAutoDisabled, channelStatusEnabled, channelStatusManuallyDisabled, logTypeTest } from '../../src/domain/constants';
import type { ChannelTestRun, ChannelTestRunRequest, ChannelTestRunResult, ChannelTestRunScope, ChannelTestRunStatus } from '../../src/domain/channel';
import type { ChannelRow, Database } from '../db/schema';
import type { ResolvedDeps } from '../http/env';
import { isRelayableType, jsonObject, nativeWireOf, sentHeaders, sentUrl, unsupportedTypeMessage, upstreamTarget } from '../relay/adaptor';
import { mappedModel } from '../relay/request';
import { recordNotFound } from './channel';
import { announce } from './clusterSync';
import { channelDisabledText, channelEnabledText, channelStatusSubject, notifyRoot } from './notify';
import { readOptions } from './options';

/**
 * Channel tests (contract §2.9.9, §2.9.10, §4.10) and automatic disabling / enabling (§4.9).
 *
 * A test sends one non-streaming chat completion straight to the channel's upstream, built
 * through the relay's adaptors (`upstreamTarget` of server/relay/adaptor.ts: URL per type,
 * `Authorization: Bearer <key>`, Azure's `api-key`; a native wire such as Anthropic's translates
 * the request and the answer). Types with no adaptor yet are refused (`unsupportedTypeMessage`).
 *
 * A single test stores `response_time` (0 ms when it failed) and `test_time` and writes a test log;
 * it never changes the channel's status. A batch run (one per database at a time, sequential,
 * POLLING_INTERVAL seconds between channels) also disables slow or fatally failing enabled channels
 * and re-enables passing ones, when the options say so. Deviation (contract §6 #31, fixed): only
 * automatically disabled channels (status 3) are re-enabled; a manually disabled one (2) stays off.
 * The "test finished" and "slow channel" notifications are not sent, as in one-api (§6 #43).
 *
 * Every batch run (started by `GET /api/channel/test?scope=`, `POST /api/channel/test_run` or the
 * CHANNEL_TEST_FREQUENCY schedule) is recorded in the database (oa_channel_test_runs and
 * oa_channel_test_run_results, migrations/testRuns.ts) with one result per tested
 * channel, so the console can follow it (`GET /api/channel/test_run/:id?after=`) and cancel it.
 */

type Db = Kysely<Database>;

/** The model a test uses when the request names none (batch tests always). */
export const defaultTestModel = 'gpt-3.5-turbo';

/** Answer of `GET /api/channel/test?scope=` while a run is in progress. */
export const testAlreadyRunning = '测试已在运行中';

/** The OpenAI-style error object of an upstream answer (`Error` of one-api's relay model). */
export interface UpstreamError {
  readonly message: string;
  readonly type: string;
  readonly code: unknown;
}

/** What one test gives: the reply text, or the error text plus the upstream error when there was one. */
export type TestOutcome =
  | { readonly ok: true; readonly reply: string; readonly model: string }
  | { readonly ok: false; readonly error: string; readonly upstream: UpstreamError | null; readonly model: string };

/** The channel columns a test needs. */
export type TestableChannel = Pick<ChannelRow, 'id' | 'type' | 'key' | 'status' | 'name' | 'base_url' | 'other' | 'models' | 'model_mapping' | 'config'>;

const testableColumns = ['id', 'type', 'key', 'status', 'name', 'base_url', 'other', 'models', 'model_mapping', 'config'] as const;

// ---------------------------------------------------------------------------------------------
// The request

/**
 * The model a test sends: the requested one (default gpt-3.5-turbo) unless the channel's `models`
 * text does not contain it (substring test), then the channel's first model; then the mapping.
 */
export function testModel(channel: Pick<ChannelRow, 'models' | 'model_mapping'>, requested: string): string {
  const models = channel.models ?? '';
  let model = requested === '' ? defaultTestModel : requested;
  if (!models.includes(model)) model = models.split(',')[0] ?? '';
  return mappedModel(channel.model_mapping, model);
}

// ---------------------------------------------------------------------------------------------
// The answer

/** The error text of an unknown thrown value. */
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);
const str = (u: unknown): string => (typeof u === 'string' ? u : '');

/**
 * The error of a non-200 answer as one-api's relay error handler reads it: `error.{message,type,code}`
 * when `error.message` is set, else the first message field found elsewhere; defaults type
 * `upstream_error`, code `bad_response_status_code`; message `bad response status code <n>` when the
 * body is JSON without any message, "" when it is not JSON.
 */
export function upstreamError(status: number, text: string): UpstreamError {
  const fallback = { message: '', type: 'upstream_error', code: 'bad_response_status_code' };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fallback;
  }
  if (!isObject(body)) return fallback;
  const error = isObject(body.error) ? body.error : {};
  if (str(error.message) !== '') return { message: str(error.message), type: str(error.type), code: error.code ?? null };
  const header = isObject(body.header) ? body.header : {};
  const response = isObject(body.response) && isObject(body.response.error) ? body.response.error : {};
  const message = [body.message, body.msg, body.err, body.error_msg, header.message, response.message].map(str).find((m) => m !== '') ?? '';
  return { ...fallback, message: message === '' ? `bad response status code ${status}` : message };
}

/** Reads a 200 answer: a usage object and a string `choices[0].message.content` are required. */
function readCompletion(text: string): E.Either<{ error: string; upstream: UpstreamError | null }, string> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return E.left({ error: errorText(error), upstream: null });
  }
  if (!isObject(body)) return E.left({ error: 'response is not a JSON object', upstream: null });
  if (isObject(body.error) && str(body.error.type) !== '') {
    const upstream = { message: str(body.error.message), type: str(body.error.type), code: body.error.code ?? null };
    return E.left({ error: upstream.message, upstream });
  }
  if (!isObject(body.usage)) return E.left({ error: 'usage is nil', upstream: null });
  const choices = Array.isArray(body.choices) ? (body.choices as unknown[]) : [];
  if (choices.length === 0) return E.left({ error: 'response has no choices', upstream: null });
  const first = choices[0];
  const content = isObject(first) && isObject(first.message) ? first.message.content : undefined;
  return typeof content === 'string' ? E.right(content) : E.left({ error: 'response is not string', upstream: null });
}

/** Sends the test request for `channel` and reads the answer; never throws. */
export async function runTest(channel: TestableChannel, requestedModel: string, prompt: string, signal?: AbortSignal): Promise<TestOutcome> {
  const model = testModel(channel, requestedModel);
  const target = upstreamTarget(channel, 'chat', model);
  if (target === null) return { ok: false, error: unsupportedTypeMessage(channel.type), upstream: null, model };
  const { url, headers } = target;
  const request = { model, messages: [{ role: 'user', content: prompt }] };
  // a native wire (Anthropic…) sends the provider's body and gives its answer back in OpenAI's format
  const wire = nativeWireOf(channel.type);
  const translated = wire === undefined ? { body: JSON.stringify(request) } : wire.requestBody('chat', request, model, jsonObject(channel.config));
  if ('invalid' in translated) return { ok: false, error: translated.invalid, upstream: null, model };
  let status: number;
  let text: string;
  try {
    const sent = await sentHeaders(target, { ...headers, 'Content-Type': 'application/json' }, translated.body);
    const response =
      target.exchange === undefined
        ? await fetch(await sentUrl(target), { method: 'POST', headers: sent, body: translated.body, signal })
        : await target.exchange(sent, translated.body, signal ?? new AbortController().signal);
    status = response.status;
    text = await response.text();
    if (wire !== undefined) {
      const answered = text;
      text = wire.answerText(status, answered, model, (name) => response.headers.get(name));
      status = wire.answerStatus?.(status, answered) ?? status;
    }
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return { ok: false, error: `Post "${url}": ${errorText(error)}${cause}`, upstream: null, model };
  }
  if (status !== 200) {
    const upstream = upstreamError(status, text);
    const suffix = upstream.message === '' ? '' : `, error message: ${upstream.message}`;
    return { ok: false, error: `http status code: ${status}${suffix}`, upstream, model };
  }
  const reply = readCompletion(text);
  return E.isRight(reply) ? { ok: true, reply: reply.right, model } : { ok: false, ...reply.left, model };
}

// ---------------------------------------------------------------------------------------------
// Automatic disabling / enabling (§4.9)

/** Lower-cased message fragments that mark a fatal upstream error. */
const fatalMessageParts = [
  'your access was terminated',
  'violation of our policies',
  'your credit balance is too low',
  'organization has been disabled',
  'credit',
  'balance',
  'permission denied',
  'organization has been restricted',
  'api key not valid',
  'api key expired',
  '已欠费',
];

/**
 * Whether an upstream error means the channel's credential is unusable (§4.9): HTTP 401 (pass
 * `status` null to skip that rule, as batch tests do), a fatal error type or code, or a fatal
 * message fragment. The AutomaticDisableChannelEnabled option is the caller's to check.
 */
export function isFatalUpstreamError(error: UpstreamError | null, status: number | null): boolean {
  if (error === null) return false;
  if (status === 401) return true;
  if (['insufficient_quota', 'authentication_error', 'permission_error', 'forbidden'].includes(error.type)) return true;
  if (error.code === 'invalid_api_key' || error.code === 'account_deactivated') return true;
  const message = error.message.toLowerCase();
  return fatalMessageParts.some((part) => message.includes(part));
}

/** Sets a channel's status and its abilities' `enabled` flag in one transaction. */
export async function setChannelStatus(db: Db, id: number, status: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.updateTable('channels').set({ status }).where('id', '=', id).execute();
    await tx.updateTable('abilities').set({ enabled: status === channelStatusEnabled }).where('channel_id', '=', id).execute();
  });
  announce(db, 'channels');
}

/** Disables a channel automatically (status 3) and notifies the root user. */
export async function autoDisableChannel(db: Db, channel: Pick<ChannelRow, 'id' | 'name'>, reason: string, signal?: AbortSignal): Promise<void> {
  await setChannelStatus(db, channel.id, channelStatusAutoDisabled);
  console.warn(`[channel] channel #${channel.id} has been disabled: ${reason}`);
  await notifyRoot(db, channelStatusSubject, channelDisabledText(channel.name ?? '', channel.id, reason), signal);
}

/** Re-enables a channel (status 1) and notifies the root user. */
export async function autoEnableChannel(db: Db, channel: Pick<ChannelRow, 'id' | 'name'>, signal?: AbortSignal): Promise<void> {
  await setChannelStatus(db, channel.id, channelStatusEnabled);
  console.warn(`[channel] channel #${channel.id} has been enabled`);
  await notifyRoot(db, channelStatusSubject, channelEnabledText(channel.name ?? '', channel.id), signal);
}

// ---------------------------------------------------------------------------------------------
// Storing results

/** Stores `response_time` (ms) and `test_time` (Unix seconds). */
async function storeResponseTime(db: Db, id: number, ms: number, nowSeconds: number): Promise<void> {
  await db.updateTable('channels').set({ response_time: ms, test_time: nowSeconds }).where('id', '=', id).execute();
}

/** Writes the test log (type 5, user 0) of one test. */
async function writeTestLog(db: Db, channel: TestableChannel, outcome: TestOutcome, elapsedMs: number, nowSeconds: number): Promise<void> {
  const name = channel.name ?? '';
  const content = outcome.ok ? `渠道 ${name} 测试成功，响应：${outcome.reply}` : `渠道 ${name} 测试失败，错误：${outcome.error}`;
  await db
    .insertInto('logs')
    .values({
      user_id: 0,
      created_at: nowSeconds,
      type: logTypeTest,
      content,
      username: '',
      token_name: '',
      model_name: outcome.model,
      quota: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      channel_id: channel.id,
      elapsed_time: elapsedMs,
    })
    .execute();
}

/** Runs one test and writes its log (not for unsupported types: nothing was sent). */
async function testAndLog(deps: ResolvedDeps, channel: TestableChannel, model: string, signal?: AbortSignal) {
  const started = performance.now();
  const outcome = await runTest(channel, model, deps.config.testPrompt, signal);
  const elapsedMs = Math.round(performance.now() - started);
  if (isRelayableType(channel.type) && signal?.aborted !== true) {
    await writeTestLog(deps.db, channel, outcome, elapsedMs, Math.floor(deps.now() / 1000));
  }
  return { outcome, elapsedMs };
}

// ---------------------------------------------------------------------------------------------
// Single test

/** The answer of `GET /api/channel/test/:id` (`modelName` echoes the query). */
export interface SingleTestAnswer {
  readonly success: boolean;
  readonly message: string;
  readonly time: number;
  readonly modelName: string;
}

/**
 * `GET /api/channel/test/:id?model=`: tests one channel, stores the response time (0 when the test
 * failed, at least 1 ms when it passed) and test time. Left = the plain failure message (channel not found).
 */
export async function testChannelById(deps: ResolvedDeps, id: number, model: string, signal?: AbortSignal): Promise<E.Either<string, SingleTestAnswer>> {
  const channel = Number.isSafeInteger(id)
    ? await deps.db.selectFrom('channels').select(testableColumns).where('id', '=', id).executeTakeFirst()
    : undefined;
  if (channel === undefined) return E.left(recordNotFound);
  const { outcome, elapsedMs } = await testAndLog(deps, channel, model, signal);
  // 0 ms means "the last single test failed" to the console (contract §2.1.3): a pass stores at least 1 ms
  const ms = outcome.ok ? Math.max(1, elapsedMs) : 0;
  await storeResponseTime(deps.db, channel.id, ms, Math.floor(deps.now() / 1000));
  return E.right({ success: outcome.ok, message: outcome.ok ? outcome.reply : outcome.error, time: ms / 1000, modelName: model });
}

// ---------------------------------------------------------------------------------------------
// Batch runs

/** Resolves after `ms`, or at once when `signal` aborts. */
const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** Largest id list per query. */
const idChunk = 500;

/**
 * The channels of a run in test order: `all` every channel and `disabled` status 2 or 3, both id
 * descending; `ids` the listed channels that exist, duplicates dropped, in the listed order.
 */
async function channelsOf(db: Db, target: TestRunTarget): Promise<TestableChannel[]> {
  if ('scope' in target) {
    let query = db.selectFrom('channels').select(testableColumns).orderBy('id', 'desc');
    if (target.scope === 'disabled') query = query.where('status', 'in', [channelStatusManuallyDisabled, channelStatusAutoDisabled]);
    return query.execute();
  }
  const ids = [...new Set(target.ids)];
  const found = new Map<number, TestableChannel>();
  for (let i = 0; i < ids.length; i += idChunk) {
    const rows = await db.selectFrom('channels').select(testableColumns).where('id', 'in', ids.slice(i, i + idChunk)).execute();
    for (const row of rows) found.set(row.id, row);
  }
  return ids.flatMap((id) => found.get(id) ?? []);
}

/** A result without its index. */
type TestedChannel = Omit<ChannelTestRunResult, 'index'>;

/**
 * Tests one channel of a batch run, applies the disable / enable rules (contract §4.10) and stores
 * the response time. Null when the run was cancelled before anything was stored.
 */
async function batchTestOne(deps: ResolvedDeps, channel: TestableChannel, signal: AbortSignal): Promise<TestedChannel | null> {
  const { db } = deps;
  const wasEnabled = channel.status === channelStatusEnabled;
  let status = channel.status;
  const { outcome, elapsedMs } = await testAndLog(deps, channel, '', signal);
  if (signal.aborted) return null;
  const o = await readOptions(db, ['AutomaticDisableChannelEnabled', 'AutomaticEnableChannelEnabled', 'ChannelDisableThreshold']);
  const autoDisable = o.bool('AutomaticDisableChannelEnabled');
  const thresholdMs = Math.trunc(o.num('ChannelDisableThreshold') * 1000);
  let disabled = false;
  if (wasEnabled && thresholdMs > 0 && elapsedMs > thresholdMs) {
    const reason = `响应时间 ${(elapsedMs / 1000).toFixed(2)}s 超过阈值 ${(thresholdMs / 1000).toFixed(2)}s`;
    if (autoDisable) {
      await autoDisableChannel(db, channel, reason, signal);
      disabled = true;
      status = channelStatusAutoDisabled;
    } else {
      console.warn(`[channel] 渠道 ${channel.name ?? ''} （${channel.id}）测试超时: ${reason}`);
    }
  }
  if (wasEnabled && !disabled && autoDisable && !outcome.ok && isFatalUpstreamError(outcome.upstream, null)) {
    await autoDisableChannel(db, channel, outcome.error, signal);
    status = channelStatusAutoDisabled;
  }
  if (channel.status === channelStatusAutoDisabled && outcome.ok && o.bool('AutomaticEnableChannelEnabled')) {
    await autoEnableChannel(db, channel, signal);
    status = channelStatusEnabled;
  }
  if (signal.aborted) return null;
  const testTime = Math.floor(deps.now() / 1000);
  await storeResponseTime(db, channel.id, elapsedMs, testTime);
  return {
    channel_id: channel.id,
    success: outcome.ok,
    message: outcome.ok ? outcome.reply : outcome.error,
    time: elapsedMs / 1000,
    model: outcome.model,
    status,
    response_time: elapsedMs,
    test_time: testTime,
  };
}

/** What a run tests: a scope, or a list of channel ids (tested in the given order). */
export type TestRunTarget = { readonly scope: 'all' | 'disabled' } | { readonly ids: readonly number[] };

/** A run as answered: the shared wire shape, plus `interrupted: true` when its gateway stopped mid-run (status `cancelled`). */
export type TestRunAnswer = ChannelTestRun & { readonly interrupted?: true };

/** A run this process executes. */
interface LocalRun {
  readonly id: number;
  readonly controller: AbortController;
  /** Settles when the run has ended and its row says so; never rejects. */
  done: Promise<void>;
}

/** The run this process executes, per database (at most one: one run per database at a time). */
const localRuns = new WeakMap<Db, LocalRun>();

/** This process as the executor of runs (written into the run's row). */
const executorId = randomUUID();

/** How many runs stay readable by id (older ones and their results are deleted when a run starts). */
const keptRuns = 100;

/** How often the executor renews its heartbeat and looks for a cancel request: a quarter of the stale time, at most 1 s. */
const heartbeatOf = (staleMs: number): number => Math.min(1000, Math.floor(staleMs / 4));

const unixSeconds = (deps: ResolvedDeps): number => Math.floor(deps.now() / 1000);

/** Whether `error` is a unique-index violation (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
function isUniqueViolation(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Ends, as interrupted (`cancelled`, `interrupted` 1), the running run whose executor sent no
 * heartbeat for CHANNEL_TEST_RUN_STALE_SECONDS (its gateway was killed or lost the database), so
 * that a new run may start. Heartbeats are wall-clock milliseconds of the gateways.
 */
async function endStaleRuns(deps: ResolvedDeps): Promise<void> {
  const staleBefore = Date.now() - deps.config.channelTestRunStaleMs;
  // Read first: the update (a write lock on SQLite) only when there is something to end.
  const stale = await deps.db
    .selectFrom('oa_channel_test_runs')
    .select('id')
    .where('status', '=', 'running')
    .where('heartbeat_at', '<', staleBefore)
    .executeTakeFirst();
  if (stale === undefined) return;
  const ended = await deps.db
    .updateTable('oa_channel_test_runs')
    .set({ status: 'cancelled', interrupted: 1, finished_at: unixSeconds(deps) })
    .where('id', '=', stale.id)
    .where('status', '=', 'running')
    .where('heartbeat_at', '<', staleBefore)
    .executeTakeFirst();
  if (Number(ended.numUpdatedRows) > 0) console.warn('[channel] a batch channel test whose gateway stopped sending heartbeats was marked interrupted');
}

/** The run `id` with its results of index `after` and later, or undefined. */
async function readRun(db: Db, id: number, after = 0): Promise<TestRunAnswer | undefined> {
  const row = await db.selectFrom('oa_channel_test_runs').selectAll().where('id', '=', id).executeTakeFirst();
  if (row === undefined) return undefined;
  // The count first, then the results below it: `done` and the results always agree.
  const counted = await db
    .selectFrom('oa_channel_test_run_results')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('run_id', '=', id)
    .executeTakeFirstOrThrow();
  const done = Number(counted.n);
  const results =
    after >= done
      ? []
      : await db
          .selectFrom('oa_channel_test_run_results')
          .selectAll()
          .where('run_id', '=', id)
          .where('idx', '>=', after)
          .where('idx', '<', done)
          .orderBy('idx')
          .execute();
  const channelIds = JSON.parse(row.channel_ids) as number[];
  return {
    id: Number(row.id),
    scope: row.scope as ChannelTestRunScope,
    status: row.status as ChannelTestRunStatus,
    total: channelIds.length,
    done,
    started_at: Number(row.started_at),
    finished_at: Number(row.finished_at),
    channel_ids: channelIds,
    results: results.map(
      (r): ChannelTestRunResult => ({
        index: Number(r.idx),
        channel_id: Number(r.channel_id),
        success: Number(r.success) !== 0,
        message: r.message,
        time: Number(r.response_time) / 1000,
        model: r.model,
        status: Number(r.status),
        response_time: Number(r.response_time),
        test_time: Number(r.test_time),
      }),
    ),
    ...(Number(row.interrupted) === 1 ? { interrupted: true as const } : {}),
  };
}

/** The id of the run in progress on the database (any gateway's), after ending stale ones; undefined when none. */
async function runningRunId(deps: ResolvedDeps): Promise<number | undefined> {
  await endStaleRuns(deps);
  const row = await deps.db.selectFrom('oa_channel_test_runs').select('id').where('status', '=', 'running').executeTakeFirst();
  return row === undefined ? undefined : Number(row.id);
}

/**
 * The body of a batch run: every channel in turn, POLLING_INTERVAL seconds apart, each result
 * stored. A test that fails on our side (database error) is recorded as a failure with
 * `test_time` 0 (nothing stored); errors are logged, never thrown.
 */
async function batchRun(deps: ResolvedDeps, run: LocalRun, channels: readonly TestableChannel[]): Promise<void> {
  const { signal } = run.controller;
  let stored = 0;
  for (const [index, channel] of channels.entries()) {
    if (signal.aborted) return;
    if (index > 0) await pause(deps.config.pollingIntervalSeconds * 1000, signal);
    if (signal.aborted) return;
    let tested: TestedChannel | null;
    try {
      tested = await batchTestOne(deps, channel, signal);
    } catch (error) {
      if (signal.aborted) return;
      console.error(`[channel] test of channel #${channel.id} failed:`, error);
      tested = { channel_id: channel.id, success: false, message: errorText(error), time: 0, model: '', status: channel.status, response_time: 0, test_time: 0 };
    }
    if (tested === null) continue;
    await deps.db
      .insertInto('oa_channel_test_run_results')
      .values({
        run_id: run.id,
        idx: stored,
        channel_id: tested.channel_id,
        success: tested.success ? 1 : 0,
        message: tested.message,
        model: tested.model,
        status: tested.status,
        response_time: tested.response_time,
        test_time: tested.test_time,
      })
      .execute();
    stored += 1;
  }
  if (channels.length > 0 && !signal.aborted) console.log(`[channel] batch channel test finished (${channels.length} channels)`);
}

/**
 * Renews the heartbeat of `run` and aborts it when someone asked to cancel it (from any gateway) or
 * when its row no longer says running (another gateway took this one for gone).
 */
async function beat(deps: ResolvedDeps, run: LocalRun): Promise<void> {
  const row = await deps.db
    .updateTable('oa_channel_test_runs')
    .set({ heartbeat_at: Date.now() })
    .where('id', '=', run.id)
    .where('status', '=', 'running')
    .returning('cancel_requested')
    .executeTakeFirst();
  if (row === undefined || Number(row.cancel_requested) !== 0) run.controller.abort();
}

/**
 * Starts a run of `target` on `deps.db` in the background: inserting its `running` row is what
 * claims the one run the database may have at a time. Left = `测试已在运行中` when a run (on any
 * gateway) is still going. Answers once the run's channel list is stored.
 */
async function beginRun(deps: ResolvedDeps, target: TestRunTarget): Promise<E.Either<string, number>> {
  const { db } = deps;
  if (localRuns.has(db)) return E.left(testAlreadyRunning);
  await endStaleRuns(deps);
  let id: number;
  try {
    const inserted = await db
      .insertInto('oa_channel_test_runs')
      .values({
        scope: 'scope' in target ? target.scope : 'ids',
        status: 'running',
        started_at: unixSeconds(deps),
        executor: executorId,
        heartbeat_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    id = Number(inserted.id);
  } catch (error) {
    if (isUniqueViolation(error)) return E.left(testAlreadyRunning);
    throw error;
  }
  const run: LocalRun = { id, controller: new AbortController(), done: Promise.resolve() };
  localRuns.set(db, run);
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  run.done = (async () => {
    let beating = false;
    const timer = setInterval(() => {
      if (beating) return;
      beating = true;
      beat(deps, run)
        .catch((error: unknown) => console.error(`[channel] test run heartbeat failed: ${errorText(error)}`))
        .finally(() => {
          beating = false;
        });
    }, heartbeatOf(deps.config.channelTestRunStaleMs));
    try {
      await db
        .deleteFrom('oa_channel_test_run_results')
        .where('run_id', '<=', id - keptRuns)
        .execute();
      await db.deleteFrom('oa_channel_test_runs').where('id', '<=', id - keptRuns).execute();
      let channels: TestableChannel[] = [];
      try {
        channels = await channelsOf(db, target);
      } catch (error) {
        console.error('[channel] batch channel test failed:', error);
      }
      await db
        .updateTable('oa_channel_test_runs')
        .set({ channel_ids: JSON.stringify(channels.map((c) => c.id)) })
        .where('id', '=', id)
        .execute();
      markReady();
      await batchRun(deps, run, channels);
    } catch (error) {
      console.error('[channel] batch channel test failed:', error);
    } finally {
      clearInterval(timer);
      markReady();
      try {
        await db
          .updateTable('oa_channel_test_runs')
          .set({ status: run.controller.signal.aborted ? 'cancelled' : 'finished', finished_at: unixSeconds(deps) })
          .where('id', '=', id)
          .where('status', '=', 'running')
          .execute();
      } catch (error) {
        console.error(`[channel] ending test run #${id} failed (it ends as interrupted once its heartbeat is stale): ${errorText(error)}`);
      }
      if (localRuns.get(db) === run) localRuns.delete(db);
    }
  })();
  await ready;
  return E.right(id);
}

/**
 * `GET /api/channel/test?scope=`: starts a batch run in the background (scope `all` by default;
 * another scope tests nothing and records no run). Left = `测试已在运行中` when a run on this
 * database (on any gateway sharing it) is still going.
 */
export async function startBatchTest(deps: ResolvedDeps, scope: string): Promise<E.Either<string, void>> {
  if (localRuns.has(deps.db) || (await runningRunId(deps)) !== undefined) return E.left(testAlreadyRunning);
  const chosen = scope === '' ? 'all' : scope;
  if (chosen !== 'all' && chosen !== 'disabled') return E.right(undefined);
  return E.map(() => undefined)(await beginRun(deps, { scope: chosen }));
}

/**
 * `POST /api/channel/test_run`: starts a run and answers it once its channel list is known.
 * Left = `测试已在运行中` when a run on this database is still going.
 */
export async function startTestRun(deps: ResolvedDeps, request: ChannelTestRunRequest): Promise<E.Either<string, TestRunAnswer>> {
  const id = await beginRun(deps, 'scope' in request ? { scope: request.scope } : { ids: request.ids });
  if (E.isLeft(id)) return id;
  const run = await readRun(deps.db, id.right);
  return run === undefined ? E.left(recordNotFound) : E.right(run);
}

/** `GET /api/channel/test_run`: the run in progress on the database (any gateway's), else the latest one, else null. */
export async function currentTestRun(deps: ResolvedDeps): Promise<TestRunAnswer | null> {
  const running = await runningRunId(deps);
  const id =
    running ?? (await deps.db.selectFrom('oa_channel_test_runs').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst())?.id;
  return id === undefined ? null : ((await readRun(deps.db, Number(id))) ?? null);
}

/** `GET /api/channel/test_run/:id?after=`: the run with the results of index `after` and later. */
export async function findTestRun(deps: ResolvedDeps, id: number, after: number): Promise<E.Either<string, TestRunAnswer>> {
  if (!Number.isSafeInteger(id)) return E.left(recordNotFound);
  let run = await readRun(deps.db, id, after);
  if (run?.status === 'running' && !localRuns.has(deps.db)) {
    await endStaleRuns(deps);
    run = await readRun(deps.db, id, after);
  }
  return run === undefined ? E.left(recordNotFound) : E.right(run);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `DELETE /api/channel/test_run/:id`: cancels the run if it is still going (the in-flight upstream
 * call is aborted) and answers it once it has ended; an ended run is answered unchanged. A run
 * executed by another gateway is flagged; that gateway sees the flag at its next heartbeat and
 * ends the run, or the run ends as interrupted once its heartbeat is stale.
 */
export async function cancelTestRun(deps: ResolvedDeps, id: number): Promise<E.Either<string, TestRunAnswer>> {
  const { db } = deps;
  if (!Number.isSafeInteger(id)) return E.left(recordNotFound);
  const found = await readRun(db, id);
  if (found === undefined) return E.left(recordNotFound);
  if (found.status !== 'running') return E.right(found);
  const local = localRuns.get(db);
  if (local?.id === id) {
    local.controller.abort();
    await local.done;
  } else {
    await db.updateTable('oa_channel_test_runs').set({ cancel_requested: 1 }).where('id', '=', id).where('status', '=', 'running').execute();
    const deadline = Date.now() + deps.config.channelTestRunStaleMs + 2 * heartbeatOf(deps.config.channelTestRunStaleMs);
    for (;;) {
      await sleep(50);
      await endStaleRuns(deps);
      const row = await db.selectFrom('oa_channel_test_runs').select('status').where('id', '=', id).executeTakeFirst();
      if (row === undefined || row.status !== 'running' || Date.now() > deadline) break;
    }
  }
  const run = await readRun(db, id);
  return run === undefined ? E.left(recordNotFound) : E.right(run);
}

/** Whether this process is executing a batch run on `db`. */
export const isBatchTestRunning = (db: Db): boolean => localRuns.has(db);

/**
 * Stops the batch run this process executes on `db`, if any (in-flight upstream calls are
 * aborted; the run ends as cancelled), and resolves when it has ended. Call before closing the database.
 */
export async function stopBatchTests(db: Db): Promise<void> {
  const run = localRuns.get(db);
  if (run === undefined) return;
  run.controller.abort();
  await run.done;
}

/**
 * `CHANNEL_TEST_FREQUENCY`: starts a test-all run every `intervalMs` (a run still going, on any
 * gateway, is left alone). Returns the function that stops the schedule (it resolves once a start
 * a tick had begun has recorded its run); `stopBatchTests` still ends a run in flight.
 */
export function scheduleChannelTests(deps: ResolvedDeps, intervalMs: number): () => Promise<void> {
  // The start a tick began (it awaits the database before it records its run): stopping waits
  // for it, so no run begins after the schedule has stopped and `stopBatchTests` can end it.
  let starting: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (starting !== undefined || isBatchTestRunning(deps.db)) return;
    starting = startBatchTest(deps, 'all')
      .then(
        (started) => {
          if (E.isRight(started)) console.log('[channel] automatic channel test started');
        },
        (error: unknown) => console.error('[channel] automatic channel test failed to start:', error),
      )
      .finally(() => {
        starting = undefined;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await starting;
  };
}
