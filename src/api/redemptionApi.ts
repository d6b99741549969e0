import * as t from 'io-ts';
import type { TaskEither } from 'fp-ts/TaskEither';
import type { ApiError } from '../domain/apiError';
import { Redemption, type RedemptionPayload } from '../domain/redemption';
import type { StatusUpdate } from '../domain/token';
import { readData, readNoData, segment, type ApiClient } from './client';
import { listOf } from './lists';

/** Redemption codes (admin; spec §7 "Redemptions", contract §2.8). */
export interface RedemptionApi {
  /** GET /api/redemption/?p=. */
  readonly list: (page: number) => TaskEither<ApiError, Redemption[]>;
  /** GET /api/redemption/search?keyword=. */
  readonly search: (keyword: string) => TaskEither<ApiError, Redemption[]>;
  /** GET /api/redemption/:id. */
  readonly get: (id: number) => TaskEither<ApiError, Redemption>;
  /** POST /api/redemption/ {name, quota, count}: the generated keys. */
  readonly create: (payload: RedemptionPayload) => TaskEither<ApiError, string[]>;
  /** PUT /api/redemption/ with id: the updated code. */
  readonly update: (payload: RedemptionPayload & { readonly id: number }) => TaskEither<ApiError, Redemption>;
  /** PUT /api/redemption/?status_only=true {id, status}: the updated code. */
  readonly setStatus: (update: StatusUpdate) => TaskEither<ApiError, Redemption>;
  /** DELETE /api/redemption/:id/. */
  readonly remove: (id: number) => TaskEither<ApiError, void>;
}

export const createRedemptionApi = (client: ApiClient): RedemptionApi => ({
  list: (page) =>
    client.request({ method: 'GET', path: '/api/redemption/', query: { p: page }, read: readData(listOf(Redemption)) }),
  search: (keyword) =>
    client.request({
      method: 'GET',
      path: '/api/redemption/search',
      query: { keyword },
      read: readData(listOf(Redemption)),
    }),
  get: (id) => client.request({ method: 'GET', path: `/api/redemption/${segment(id)}`, read: readData(Redemption) }),
  create: (payload) =>
    client.request({ method: 'POST', path: '/api/redemption/', body: payload, read: readData(listOf(t.string)) }),
  update: (payload) =>
    client.request({ method: 'PUT', path: '/api/redemption/', body: payload, read: readData(Redemption) }),
  setStatus: ({ id, status }) =>
    client.request({
      method: 'PUT',
      path: '/api/redemption/',
      query: { status_only: 'true' },
      body: { id, status },
      read: readData(Redemption),
    }),
  remove: (id) => client.request({ method: 'DELETE', path: `/api/redemption/${segment(id)}/`, read: readNoData }),
});
