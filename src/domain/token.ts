import * as t from 'io-ts';

/** A relay API key (contract §2.1.2). `key` has no `sk-` prefix on the wire. */
export const Token = t.intersection([
  t.type({
    id: t.number,
    name: t.string,
    key: t.string,
    status: t.number,
    created_time: t.number,
    expired_time: t.number,
    remain_quota: t.number,
    unlimited_quota: t.boolean,
    used_quota: t.number,
  }),
  t.partial({
    user_id: t.number,
    accessed_time: t.number,
    models: t.union([t.string, t.null]),
    subnet: t.union([t.string, t.null]),
  }),
]);
export type Token = t.TypeOf<typeof Token>;

export const TokenPayload = t.intersection([
  t.type({
    name: t.string,
    remain_quota: t.number,
    expired_time: t.number,
    unlimited_quota: t.boolean,
  }),
  t.partial({ id: t.number, models: t.string, subnet: t.string }),
]);
export type TokenPayload = t.TypeOf<typeof TokenPayload>;

export const StatusUpdate = t.type({ id: t.number, status: t.number });
export type StatusUpdate = t.TypeOf<typeof StatusUpdate>;
