import type { TaskEither } from 'fp-ts/TaskEither';
import type { ApiError } from '../domain/apiError';
import { Token, type StatusUpdate, type TokenPayload } from '../domain/token';
import { readData, readNoData, segment, type ApiClient } from './client';
import { listOf } from './lists';

/** Server-side orders of the token list (contract §1.8); '' = id descending. */
export type TokenOrder = '' | 'remain_quota' | 'used_quota';

/** The caller's relay API keys (spec §7 "Tokens", contract §2.7). */
export interface TokenApi {
  /** GET /api/token/?p=&order=. */
  readonly list: (page: number, order?: TokenOrder) => TaskEither<ApiError, Token[]>;
  /** GET /api/token/search?keyword=. */
  readonly search: (keyword: string) => TaskEither<ApiError, Token[]>;
  /** GET /api/token/:id. */
  readonly get: (id: number) => TaskEither<ApiError, Token>;
  /** POST /api/token/: the created token (with its key). */
  readonly create: (payload: TokenPayload) => TaskEither<ApiError, Token>;
  /** PUT /api/token/ with id (full edit): the updated token. */
  readonly update: (payload: TokenPayload & { readonly id: number }) => TaskEither<ApiError, Token>;
  /** PUT /api/token/?status_only=true {id, status}: the updated token. */
  readonly setStatus: (update: StatusUpdate) => TaskEither<ApiError, Token>;
  /** DELETE /api/token/:id/. */
  readonly remove: (id: number) => TaskEither<ApiError, void>;
}

export const createTokenApi = (client: ApiClient): TokenApi => ({
  list: (page, order = '') =>
    client.request({ method: 'GET', path: '/api/token/', query: { p: page, order }, read: readData(listOf(Token)) }),
  search: (keyword) =>
    client.request({ method: 'GET', path: '/api/token/search', query: { keyword }, read: readData(listOf(Token)) }),
  get: (id) => client.request({ method: 'GET', path: `/api/token/${segment(id)}`, read: readData(Token) }),
  create: (payload) => client.request({ method: 'POST', path: '/api/token/', body: payload, read: readData(Token) }),
  update: (payload) => client.request({ method: 'PUT', path: '/api/token/', body: payload, read: readData(Token) }),
  setStatus: ({ id, status }) =>
    client.request({
      method: 'PUT',
      path: '/api/token/',
      query: { status_only: 'true' },
      body: { id, status },
      read: readData(Token),
    }),
  remove: (id) => client.request({ method: 'DELETE', path: `/api/token/${segment(id)}/`, read: readNoData }),
});
