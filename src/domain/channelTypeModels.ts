import * as t from 'io-ts';

/** `GET /api/models` — channel type (string key) to its default models; null for type 43. */
export const ChannelTypeModels = t.record(t.string, t.union([t.array(t.string), t.null]));
export type ChannelTypeModels = t.TypeOf<typeof ChannelTypeModels>;
