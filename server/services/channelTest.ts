import * as E from 'fp-ts/Either';
import type { Kysely } from 'kysely';
import { channelStatusAutoDisabled, channelStatusEnabled, channelStatusManuallyDisabled, logTypeTest } from '../../src/domain/constants';
import type { ChannelTestRun, ChannelTestRunRequest, ChannelTestRunResult, ChannelTestRunScope, ChannelTestRunStatus } from '../../src/domain/channel';
import type { ChannelRow, Database } from '../db/schema';
import type { ResolvedDeps } from '../http/env';
import { isRelayableType, jsonObject, nativeWireOf, sentHeaders, sentUrl, unsupportedTypeMessage, upstreamTarget } from '../relay/adaptor';
import { mappedModel } from '../relay/request';
import { recordNotFound } from './channel';
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
 * CHANNEL_TEST_FREQUENCY schedule) is recorded in memory per database with one result per tested
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

/** What a run tests: a scope, or a list of channel ids (tested in the given order). */
export type TestRunTarget = { readonly scope: 'all' | 'disabled' } | { readonly ids: readonly number[] };

interface Run {
  readonly controller: AbortController;
  /** Settles when the run has ended (finished or cancelled); never rejects. */
  done: Promise<void>;
  /** Settles when the run's channel list is known; never rejects. */
  ready: Promise<void>;
  readonly id: number;
  readonly scope: ChannelTestRunScope;
  status: ChannelTestRunStatus;
  readonly startedAt: number;
  finishedAt: number;
  channelIds: readonly number[];
  readonly results: ChannelTestRunResult[];
}

/** The runs of one database: the one in progress and the latest ones (newest last, the active one included). */
interface RunRegistry {
  active: Run | undefined;
  readonly history: Run[];
}

/** How many runs per database stay readable by id. */
const keptRuns = 16;

/** Per database (one-api: one run per process). */
const registries = new WeakMap<Db, RunRegistry>();

/** Run ids: 1, 2, 3… per process. */
let lastRunId = 0;

function registryOf(db: Db): RunRegistry {
  let registry = registries.get(db);
  if (registry === undefined) {
    registry = { active: undefined, history: [] };
    registries.set(db, registry);
  }
  return registry;
}

/** The wire form of a run, with the results of index `after` and later. */
const snapshot = (run: Run, after = 0): ChannelTestRun => ({
  id: run.id,
  scope: run.scope,
  status: run.status,
  total: run.channelIds.length,
  done: run.results.length,
  started_at: run.startedAt,
  finished_at: run.finishedAt,
  channel_ids: [...run.channelIds],
  results: run.results.slice(after),
});

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

/**
 * The body of a batch run: every channel in turn, POLLING_INTERVAL seconds apart, each result
 * recorded. A test that fails on our side (database error) is recorded as a failure with
 * `test_time` 0 (nothing stored); errors are logged, never thrown.
 */
async function batchRun(deps: ResolvedDeps, run: Run, channels: readonly TestableChannel[]): Promise<void> {
  const { signal } = run.controller;
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
    if (tested !== null) run.results.push({ index: run.results.length, ...tested });
  }
  if (channels.length > 0 && !signal.aborted) console.log(`[channel] batch channel test finished (${channels.length} channels)`);
}

/**
 * Starts a run of `target` on `deps.db` in the background. Left = `测试已在运行中` when a run on
 * this database is still going. The run's channel list is known once `run.ready` settles.
 */
function beginRun(deps: ResolvedDeps, target: TestRunTarget): E.Either<string, Run> {
  const registry = registryOf(deps.db);
  if (registry.active !== undefined) return E.left(testAlreadyRunning);
  lastRunId += 1;
  const run: Run = {
    controller: new AbortController(),
    done: Promise.resolve(),
    ready: Promise.resolve(),
    id: lastRunId,
    scope: 'scope' in target ? target.scope : 'ids',
    status: 'running',
    startedAt: Math.floor(deps.now() / 1000),
    finishedAt: 0,
    channelIds: [],
    results: [],
  };
  registry.active = run;
  registry.history.push(run);
  if (registry.history.length > keptRuns) registry.history.splice(0, registry.history.length - keptRuns);
  const channels = channelsOf(deps.db, target).then(
    (list) => {
      run.channelIds = list.map((c) => c.id);
      return list;
    },
    (error: unknown) => {
      console.error('[channel] batch channel test failed:', error);
      return [];
    },
  );
  run.ready = channels.then(() => undefined);
  run.done = channels
    .then((list) => batchRun(deps, run, list))
    .catch((error: unknown) => {
      console.error('[channel] batch channel test failed:', error);
    })
    .finally(() => {
      run.status = run.controller.signal.aborted ? 'cancelled' : 'finished';
      run.finishedAt = Math.floor(deps.now() / 1000);
      if (registry.active === run) registry.active = undefined;
    });
  return E.right(run);
}

/**
 * `GET /api/channel/test?scope=`: starts a batch run in the background (scope `all` by default;
 * another scope tests nothing and records no run). Left = `测试已在运行中` when a run on this
 * database is still going.
 */
export function startBatchTest(deps: ResolvedDeps, scope: string): E.Either<string, void> {
  if (registryOf(deps.db).active !== undefined) return E.left(testAlreadyRunning);
  const chosen = scope === '' ? 'all' : scope;
  if (chosen !== 'all' && chosen !== 'disabled') return E.right(undefined);
  return E.map(() => undefined)(beginRun(deps, { scope: chosen }));
}

/**
 * `POST /api/channel/test_run`: starts a run and answers it once its channel list is known.
 * Left = `测试已在运行中` when a run on this database is still going.
 */
export async function startTestRun(deps: ResolvedDeps, request: ChannelTestRunRequest): Promise<E.Either<string, ChannelTestRun>> {
  const run = beginRun(deps, 'scope' in request ? { scope: request.scope } : { ids: request.ids });
  if (E.isLeft(run)) return run;
  await run.right.ready;
  return E.right(snapshot(run.right));
}

/** `GET /api/channel/test_run`: the run in progress on `db`, else the latest one, else null. */
export function currentTestRun(db: Db): ChannelTestRun | null {
  const registry = registryOf(db);
  const run = registry.active ?? registry.history.at(-1);
  return run === undefined ? null : snapshot(run);
}

/** `GET /api/channel/test_run/:id?after=`: the run with the results of index `after` and later. */
export function findTestRun(db: Db, id: number, after: number): E.Either<string, ChannelTestRun> {
  const run = registryOf(db).history.find((r) => r.id === id);
  return run === undefined ? E.left(recordNotFound) : E.right(snapshot(run, after));
}

/**
 * `DELETE /api/channel/test_run/:id`: cancels the run if it is still going (the in-flight upstream
 * call is aborted) and answers it once it has ended; an ended run is answered unchanged.
 */
export async function cancelTestRun(db: Db, id: number): Promise<E.Either<string, ChannelTestRun>> {
  const run = registryOf(db).history.find((r) => r.id === id);
  if (run === undefined) return E.left(recordNotFound);
  if (run.status === 'running') {
    run.controller.abort();
    await run.done;
  }
  return E.right(snapshot(run));
}

/** Whether a batch run on `db` is in progress. */
export const isBatchTestRunning = (db: Db): boolean => registryOf(db).active !== undefined;

/**
 * Stops the batch run on `db`, if any (in-flight upstream calls are aborted), and resolves when it
 * has ended. Call before closing the database.
 */
export async function stopBatchTests(db: Db): Promise<void> {
  const run = registries.get(db)?.active;
  if (run === undefined) return;
  run.controller.abort();
  await run.done;
}

/**
 * `CHANNEL_TEST_FREQUENCY`: starts a test-all run every `intervalMs` (a run still going is left
 * alone). Returns the function that stops the schedule; `stopBatchTests` still ends a run in flight.
 */
export function scheduleChannelTests(deps: ResolvedDeps, intervalMs: number): () => void {
  const timer = setInterval(() => {
    if (!isBatchTestRunning(deps.db)) {
      console.log('[channel] automatic channel test started');
      startBatchTest(deps, 'all');
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
