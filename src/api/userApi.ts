import * as t from 'io-ts';
import type { TaskEither } from 'fp-ts/TaskEither';
import type { ApiError } from '../domain/apiError';
import {
  DashboardRow,
  ManagedUser,
  User,
  type SelfUpdatePayload,
  type UserCreatePayload,
  type UserManageAction,
  type UserUpdatePayload,
} from '../domain/user';
import type { DashboardQuery } from '../domain/dashboard';
import { Pricing } from '../domain/pricing';
import { readData, readNoData, segment, type ApiClient } from './client';
import { listOf } from './lists';

/** The manage answer is a zero-filled User: keep only role and status. */
const managedUserOnly = t.exact(ManagedUser);

/** Server-side orders of the user list (contract §1.8); '' = id descending. */
export type UserOrder = '' | 'quota' | 'used_quota' | 'request_count';

/** Own account and admin user management (spec §7 "Users", contract §2.4, §2.5). */
export interface UserApi {
  /** GET /api/user/?p=&order= (admin). */
  readonly listUsers: (page: number, order?: UserOrder) => TaskEither<ApiError, User[]>;
  /** GET /api/user/search?keyword= (admin). */
  readonly searchUsers: (keyword: string) => TaskEither<ApiError, User[]>;
  /** GET /api/user/:id (admin). */
  readonly getUser: (id: number) => TaskEither<ApiError, User>;
  /** GET /api/user/self. */
  readonly getSelf: () => TaskEither<ApiError, User>;
  /** PUT /api/user/ (admin): user fields plus id, quota as a number. */
  readonly updateUser: (payload: UserUpdatePayload) => TaskEither<ApiError, void>;
  /** PUT /api/user/self: username, display_name, password (empty = unchanged). */
  readonly updateSelf: (payload: SelfUpdatePayload) => TaskEither<ApiError, void>;
  /** POST /api/user/ (admin): username, display_name, password. */
  readonly createUser: (payload: UserCreatePayload) => TaskEither<ApiError, void>;
  /** DELETE /api/user/self. */
  readonly deleteSelf: () => TaskEither<ApiError, void>;
  /** DELETE /api/user/:id (admin; one-api answers an empty 200 body on success). */
  readonly deleteUser: (id: number) => TaskEither<ApiError, void>;
  /** POST /api/user/manage {username, action}: the new role and status only (the zero-filled rest is dropped). */
  readonly manageUser: (username: string, action: UserManageAction) => TaskEither<ApiError, ManagedUser>;
  /** GET /api/user/token: regenerates the system access token and returns it. */
  readonly generateAccessToken: () => TaskEither<ApiError, string>;
  /** GET /api/user/aff: the invitation code. */
  readonly getAffCode: () => TaskEither<ApiError, string>;
  /** POST /api/user/topup {key}: the quota added. */
  readonly topUp: (key: string) => TaskEither<ApiError, number>;
  /** GET /api/user/available_models. */
  readonly getAvailableModels: () => TaskEither<ApiError, string[]>;
  /** GET /api/user/dashboard: usage rows (without a query one-api's last 7 UTC days; with one the range, offset and user). */
  readonly getDashboard: (query?: DashboardQuery) => TaskEither<ApiError, DashboardRow[]>;
  /** GET /api/pricing: the caller's models and prices for their group (quota per 1M tokens). */
  readonly getPricing: () => TaskEither<ApiError, Pricing>;
  /** GET /api/group/ (admin): group names. */
  readonly listGroups: () => TaskEither<ApiError, string[]>;
}

export const createUserApi = (client: ApiClient): UserApi => ({
  listUsers: (page, order = '') =>
    client.request({ method: 'GET', path: '/api/user/', query: { p: page, order }, read: readData(listOf(User)) }),
  searchUsers: (keyword) =>
    client.request({ method: 'GET', path: '/api/user/search', query: { keyword }, read: readData(listOf(User)) }),
  getUser: (id) => client.request({ method: 'GET', path: `/api/user/${segment(id)}`, read: readData(User) }),
  getSelf: () => client.request({ method: 'GET', path: '/api/user/self', read: readData(User) }),
  updateUser: (payload) => client.request({ method: 'PUT', path: '/api/user/', body: payload, read: readNoData }),
  updateSelf: (payload) => client.request({ method: 'PUT', path: '/api/user/self', body: payload, read: readNoData }),
  createUser: (payload) => client.request({ method: 'POST', path: '/api/user/', body: payload, read: readNoData }),
  deleteSelf: () => client.request({ method: 'DELETE', path: '/api/user/self', read: readNoData }),
  deleteUser: (id) =>
    client.request({ method: 'DELETE', path: `/api/user/${segment(id)}`, read: readNoData, emptyBodyIsSuccess: true }),
  manageUser: (username, action) =>
    client.request({ method: 'POST', path: '/api/user/manage', body: { username, action }, read: readData(managedUserOnly) }),
  generateAccessToken: () => client.request({ method: 'GET', path: '/api/user/token', read: readData(t.string) }),
  getAffCode: () => client.request({ method: 'GET', path: '/api/user/aff', read: readData(t.string) }),
  topUp: (key) => client.request({ method: 'POST', path: '/api/user/topup', body: { key }, read: readData(t.number) }),
  getAvailableModels: () =>
    client.request({ method: 'GET', path: '/api/user/available_models', read: readData(listOf(t.string)) }),
  getDashboard: (query) =>
    client.request({ method: 'GET', path: '/api/user/dashboard', query: query === undefined ? undefined : { ...query }, read: readData(listOf(DashboardRow)) }),
  getPricing: () => client.request({ method: 'GET', path: '/api/pricing', read: readData(Pricing) }),
  listGroups: () => client.request({ method: 'GET', path: '/api/group/', read: readData(listOf(t.string)) }),
});
