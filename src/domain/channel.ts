import * as t from 'io-ts';

const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);

/** An upstream channel (contract §2.1.3). `key` is "" on reads. */
export const Channel = t.intersection([
  t.type({
    id: t.number,
    type: t.number,
    name: t.string,
    status: t.number,
    models: t.string,
    group: t.string,
  }),
  t.partial({
    key: t.string,
    weight: nullable(t.number),
    created_time: t.number,
    test_time: t.number,
    response_time: t.number,
    base_url: nullable(t.string),
    other: nullable(t.string),
    balance: t.number,
    balance_updated_time: t.number,
    used_quota: t.number,
    model_mapping: nullable(t.string),
    priority: nullable(t.number),
    config: t.string,
    system_prompt: nullable(t.string),
  }),
]);
export type Channel = t.TypeOf<typeof Channel>;

/** The per-type settings carried as JSON text in `channel.config`. */
export const ChannelConfig = t.partial({
  region: t.string,
  sk: t.string,
  ak: t.string,
  user_id: t.string,
  api_version: t.string,
  library_id: t.string,
  plugin: t.string,
  vertex_ai_project_id: t.string,
  vertex_ai_adc: t.string,
});
export type ChannelConfig = t.TypeOf<typeof ChannelConfig>;

/** Body of `POST /api/channel/` and full `PUT /api/channel/`. */
export const ChannelPayload = t.intersection([
  t.type({ type: t.number, name: t.string, models: t.string, group: t.string }),
  t.partial({
    id: t.number,
    key: t.string,
    base_url: t.string,
    other: t.string,
    model_mapping: t.string,
    system_prompt: t.string,
    config: t.string,
    status: t.number,
    priority: t.number,
    weight: t.number,
  }),
]);
export type ChannelPayload = t.TypeOf<typeof ChannelPayload>;

/** Partial update used for status, priority and weight (`PUT /api/channel/`). */
export const ChannelPatch = t.intersection([
  t.type({ id: t.number }),
  t.partial({ status: t.number, priority: t.number, weight: t.number }),
]);
export type ChannelPatch = t.TypeOf<typeof ChannelPatch>;

/** `GET /api/channel/test/:id` — the envelope plus `time` (s) and `modelName` (not enveloped data). */
export const ChannelTestResult = t.intersection([
  t.type({ success: t.boolean, message: t.string }),
  t.partial({ time: t.number, modelName: t.string, model: t.string }),
]);
export type ChannelTestResult = t.TypeOf<typeof ChannelTestResult>;

/** `GET /api/channel/update_balance/:id` — `balance` at the top level. */
export const BalanceResult = t.intersection([
  t.type({ success: t.boolean, message: t.string }),
  t.partial({ balance: t.number }),
]);
export type BalanceResult = t.TypeOf<typeof BalanceResult>;

/** `GET /api/channel/models` — an OpenAI model list, not enveloped. */
export const ModelCatalogue = t.type({
  object: t.string,
  data: t.array(t.type({ id: t.string })),
});
export type ModelCatalogue = t.TypeOf<typeof ModelCatalogue>;

/** `GET /api/models` — channel type (string key) to its default models; null for type 43. */
export const ChannelTypeModels = t.record(t.string, t.union([t.array(t.string), t.null]));
export type ChannelTypeModels = t.TypeOf<typeof ChannelTypeModels>;

/** Largest number of channel ids one test run request may name. */
export const maxTestRunIds = 10000;

/** Which channels a test run covers: every channel, the disabled ones, or a list of ids. */
export const ChannelTestRunScope = t.keyof({ all: null, disabled: null, ids: null }, 'ChannelTestRunScope');
export type ChannelTestRunScope = t.TypeOf<typeof ChannelTestRunScope>;

/** The state of a test run. */
export const ChannelTestRunStatus = t.keyof({ running: null, finished: null, cancelled: null }, 'ChannelTestRunStatus');
export type ChannelTestRunStatus = t.TypeOf<typeof ChannelTestRunStatus>;

/** One tested channel of a run (`GET /api/channel/test_run`). */
export const ChannelTestRunResult = t.type(
  {
    /** 0-based position in the run's results. */
    index: t.number,
    channel_id: t.number,
    success: t.boolean,
    /** The upstream's reply, or the error. */
    message: t.string,
    /** Seconds the test took. */
    time: t.number,
    /** The model tested. */
    model: t.string,
    /** The channel's status after this test (automatic disabling / enabling applied). */
    status: t.number,
    /** Milliseconds stored as the channel's `response_time`. */
    response_time: t.number,
    /** Unix seconds stored as the channel's `test_time`. */
    test_time: t.number,
  },
  'ChannelTestRunResult',
);
export type ChannelTestRunResult = t.TypeOf<typeof ChannelTestRunResult>;

/** A background test of several channels, one after another, with the results so far. */
export const ChannelTestRun = t.type(
  {
    id: t.number,
    scope: ChannelTestRunScope,
    status: ChannelTestRunStatus,
    total: t.number,
    done: t.number,
    /** Unix seconds. */
    started_at: t.number,
    /** Unix seconds; 0 while running. */
    finished_at: t.number,
    /** The channels of the run in test order. */
    channel_ids: t.array(t.number),
    results: t.array(ChannelTestRunResult),
  },
  'ChannelTestRun',
);
export type ChannelTestRun = t.TypeOf<typeof ChannelTestRun>;

/** A positive safe integer (a channel id). */
const ChannelId = t.refinement(t.number, (n) => Number.isSafeInteger(n) && n > 0, 'positive integer');

/** 1 to `maxTestRunIds` channel ids. */
const ChannelIdList = t.refinement(
  t.array(ChannelId),
  (ids) => ids.length > 0 && ids.length <= maxTestRunIds,
  `list of 1 to ${maxTestRunIds} channel ids`,
);

const ScopeRunRequest = t.type({ scope: t.keyof({ all: null, disabled: null }, '"all" | "disabled"') });
const IdsRunRequest = t.type({ ids: ChannelIdList });

/** Body of `POST /api/channel/test_run`: exactly one of `scope` and `ids`. */
export type ChannelTestRunRequest = { readonly scope: 'all' | 'disabled' } | { readonly ids: readonly number[] };

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

/** Body of `POST /api/channel/test_run`: exactly one of `scope` and `ids`. */
export const ChannelTestRunRequest = new t.Type<ChannelTestRunRequest, ChannelTestRunRequest, unknown>(
  'ChannelTestRunRequest',
  (u): u is ChannelTestRunRequest => isRecord(u) && ('scope' in u ? !('ids' in u) && ScopeRunRequest.is(u) : IdsRunRequest.is(u)),
  (u, c) => {
    if (!isRecord(u)) return t.failure(u, c, 'expected an object with "scope" or "ids"');
    const hasScope = 'scope' in u;
    if (hasScope && 'ids' in u) return t.failure(u, c, 'give either "scope" or "ids", not both');
    if (!hasScope && !('ids' in u)) return t.failure(u, c, 'expected "scope" or "ids"');
    return hasScope ? ScopeRunRequest.validate(u, c) : IdsRunRequest.validate(u, c);
  },
  (a) => a,
);
