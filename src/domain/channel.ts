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
