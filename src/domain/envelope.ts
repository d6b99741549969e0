import * as t from 'io-ts';

/** The head every /api answer carries: `{ success, message }`. */
export const EnvelopeHead = t.type({ success: t.boolean, message: t.string });
export type EnvelopeHead = t.TypeOf<typeof EnvelopeHead>;

/** one-api's envelope `{ success, message, data? }`; `data` is absent (not null) when there is none. */
export const Envelope = <C extends t.Mixed>(data: C) =>
  t.intersection([EnvelopeHead, t.partial({ data })]);
export type Envelope<A> = EnvelopeHead & { data?: A };
