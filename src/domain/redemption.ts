import * as t from 'io-ts';

/** A redemption code (contract §2.1.4). */
export const Redemption = t.intersection([
  t.type({
    id: t.number,
    name: t.string,
    key: t.string,
    status: t.number,
    quota: t.number,
    created_time: t.number,
    redeemed_time: t.number,
  }),
  t.partial({ user_id: t.number, count: t.number }),
]);
export type Redemption = t.TypeOf<typeof Redemption>;

export const RedemptionPayload = t.intersection([
  t.type({ name: t.string, quota: t.number }),
  t.partial({ id: t.number, count: t.number }),
]);
export type RedemptionPayload = t.TypeOf<typeof RedemptionPayload>;
