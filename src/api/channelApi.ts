import * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import { pipe } from 'fp-ts/function';
import * as TE from 'fp-ts/TaskEither';
import type { TaskEither } from 'fp-ts/TaskEither';
import type { ApiError } from '../domain/apiError';
import {
  BalanceResult,
  Channel,
  ChannelTestResult,
  ChannelTagCount,
  ChannelTagEditResult,
  ChannelTestRun,
  ModelCatalogue,
  type ChannelTagEdit,
  type ChannelPatch,
  type ChannelPayload,
  type ChannelTestRunRequest,
} from '../domain/channel';
import { readData, readNoData, readPlain, readResult, segment, type ApiClient, type BodyReader } from './client';
import { decodeAt } from './decode';
import { listOf } from './lists';

export type ChannelTestScope = 'all' | 'disabled';

/** Channels (admin; spec §7 "Channels", contract §2.9). */
export interface ChannelApi {
  /** GET /api/channel/?p=: one page, keys hidden. */
  readonly list: (page: number) => TaskEither<ApiError, Channel[]>;
  /** GET /api/channel/search?keyword=. */
  readonly search: (keyword: string) => TaskEither<ApiError, Channel[]>;
  /** GET /api/channel/:id. */
  readonly get: (id: number) => TaskEither<ApiError, Channel>;
  /** POST /api/channel/: models and group as comma strings, config as JSON text. */
  readonly create: (payload: ChannelPayload) => TaskEither<ApiError, void>;
  /** PUT /api/channel/ with id (full edit): the stored channel. */
  readonly update: (payload: ChannelPayload & { readonly id: number }) => TaskEither<ApiError, Channel>;
  /** PUT /api/channel/ with only id plus status, priority or weight: the stored channel. */
  readonly patch: (patch: ChannelPatch) => TaskEither<ApiError, Channel>;
  /** DELETE /api/channel/:id/. */
  readonly remove: (id: number) => TaskEither<ApiError, void>;
  /** DELETE /api/channel/disabled: how many were deleted. */
  readonly removeDisabled: () => TaskEither<ApiError, number>;
  /** GET /api/channel/test?scope=: starts a background test run. */
  readonly testAll: (scope: ChannelTestScope) => TaskEither<ApiError, void>;
  /** GET /api/channel/test/:id?model=: `message` is the reply, `time` seconds (not enveloped). */
  readonly test: (id: number, model: string) => TaskEither<ApiError, ChannelTestResult>;
  /** GET /api/channel/update_balance/:id/: the balance (top-level field, not enveloped). */
  readonly updateBalance: (id: number) => TaskEither<ApiError, number>;
  /** GET /api/channel/update_balance: "update all" (a no-op on one-api, always success). */
  readonly updateAllBalances: () => TaskEither<ApiError, void>;
  /** GET /api/channel/models: the global model catalogue (OpenAI list, not enveloped). */
  readonly catalogue: () => TaskEither<ApiError, ModelCatalogue>;
  /** POST /api/channel/test_run: starts a recorded test run of a scope or of some channels. */
  readonly startTestRun: (request: ChannelTestRunRequest) => TaskEither<ApiError, ChannelTestRun>;
  /** GET /api/channel/test_run: the run in progress, else the latest one, else null. */
  readonly currentTestRun: () => TaskEither<ApiError, ChannelTestRun | null>;
  /** GET /api/channel/test_run/:id?after=: the run with the results of index `after` and later. */
  readonly getTestRun: (id: number, after: number) => TaskEither<ApiError, ChannelTestRun>;
  /** DELETE /api/channel/test_run/:id: cancels a running run; the run once it has ended. */
  readonly cancelTestRun: (id: number) => TaskEither<ApiError, ChannelTestRun>;
  /** GET /api/channel/tags: every tag in use with its channel count (not in one-api). */
  readonly tags: () => TaskEither<ApiError, ChannelTagCount[]>;
  /** PUT /api/channel/tag: sets fields on every channel with the tag; how many were changed (not in one-api). */
  readonly updateByTag: (edit: ChannelTagEdit) => TaskEither<ApiError, number>;
}

/** `{success, message, balance}`: success false is a Failure; a success without `balance` is a Decode error. */
const readBalance: BodyReader<number> = (body, call) => {
  const result = readResult(BalanceResult)(body, call);
  return E.isLeft(result) ? result : decodeAt(t.number, result.right.balance, call, 'balance');
};

export const createChannelApi = (client: ApiClient): ChannelApi => ({
  list: (page) => client.request({ method: 'GET', path: '/api/channel/', query: { p: page }, read: readData(listOf(Channel)) }),
  search: (keyword) =>
    client.request({ method: 'GET', path: '/api/channel/search', query: { keyword }, read: readData(listOf(Channel)) }),
  get: (id) => client.request({ method: 'GET', path: `/api/channel/${segment(id)}`, read: readData(Channel) }),
  create: (payload) => client.request({ method: 'POST', path: '/api/channel/', body: payload, read: readNoData }),
  update: (payload) => client.request({ method: 'PUT', path: '/api/channel/', body: payload, read: readData(Channel) }),
  patch: (patch) => client.request({ method: 'PUT', path: '/api/channel/', body: patch, read: readData(Channel) }),
  remove: (id) => client.request({ method: 'DELETE', path: `/api/channel/${segment(id)}/`, read: readNoData }),
  removeDisabled: () => client.request({ method: 'DELETE', path: '/api/channel/disabled', read: readData(t.number) }),
  testAll: (scope) => client.request({ method: 'GET', path: '/api/channel/test', query: { scope }, read: readNoData }),
  test: (id, model) =>
    client.request({
      method: 'GET',
      path: `/api/channel/test/${segment(id)}`,
      query: { model },
      read: readResult(ChannelTestResult),
    }),
  updateBalance: (id) =>
    client.request({ method: 'GET', path: `/api/channel/update_balance/${segment(id)}/`, read: readBalance }),
  updateAllBalances: () => client.request({ method: 'GET', path: '/api/channel/update_balance', read: readNoData }),
  catalogue: () => client.request({ method: 'GET', path: '/api/channel/models', read: readPlain(ModelCatalogue) }),
  startTestRun: (request) =>
    client.request({ method: 'POST', path: '/api/channel/test_run', body: request, read: readData(ChannelTestRun) }),
  currentTestRun: () =>
    client.request({ method: 'GET', path: '/api/channel/test_run', read: readData(t.union([ChannelTestRun, t.null])) }),
  getTestRun: (id, after) =>
    client.request({ method: 'GET', path: `/api/channel/test_run/${segment(id)}`, query: { after }, read: readData(ChannelTestRun) }),
  cancelTestRun: (id) =>
    client.request({ method: 'DELETE', path: `/api/channel/test_run/${segment(id)}`, read: readData(ChannelTestRun) }),
  tags: () => client.request({ method: 'GET', path: '/api/channel/tags', read: readData(listOf(ChannelTagCount)) }),
  updateByTag: (edit) =>
    pipe(
      client.request({ method: 'PUT', path: '/api/channel/tag', body: edit, read: readData(ChannelTagEditResult) }),
      TE.map((result) => result.count),
    ),
});
