import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema';

/**
 * User lookups and the User JSON shape of contract §2.1.1. Rows written by older one-api
 * versions may hold NULLs; the JSON always carries zero values instead.
 */

type Db = Kysely<Database>;

/** Whether a lookup value can match anything: not empty and no NUL (PostgreSQL text cannot hold NUL). */
export const isSearchable = (value: string): boolean => value !== '' && !value.includes('\u0000');

/** The 19-field User object one-api serialises (all fields always present). */
export interface UserJson {
  id: number;
  username: string;
  password: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  github_id: string;
  wechat_id: string;
  lark_id: string;
  oidc_id: string;
  verification_code: string;
  access_token: string;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string;
  inviter_id: number;
}

/** A User object with every field at its zero value. */
export const emptyUserJson = (): UserJson => ({
  id: 0,
  username: '',
  password: '',
  display_name: '',
  role: 0,
  status: 0,
  email: '',
  github_id: '',
  wechat_id: '',
  lark_id: '',
  oidc_id: '',
  verification_code: '',
  access_token: '',
  quota: 0,
  used_quota: 0,
  request_count: 0,
  group: '',
  aff_code: '',
  inviter_id: 0,
});

/** Full User JSON of a row; `password` is always "", `access_token` only when `withAccessToken`. */
export function userJson(row: UserRow, options: { readonly withAccessToken: boolean }): UserJson {
  return {
    ...emptyUserJson(),
    id: row.id,
    username: row.username ?? '',
    display_name: row.display_name ?? '',
    role: row.role,
    status: row.status,
    email: row.email ?? '',
    github_id: row.github_id ?? '',
    wechat_id: row.wechat_id ?? '',
    lark_id: row.lark_id ?? '',
    oidc_id: row.oidc_id ?? '',
    access_token: options.withAccessToken ? (row.access_token ?? '').trimEnd() : '',
    quota: row.quota,
    used_quota: row.used_quota,
    request_count: row.request_count,
    group: row.group,
    aff_code: row.aff_code ?? '',
    inviter_id: row.inviter_id ?? 0,
  };
}

/** The login response `data`: only id, username, display_name, role and status filled (§2.3.1). */
export function loginUserJson(row: UserRow): UserJson {
  return {
    ...emptyUserJson(),
    id: row.id,
    username: row.username ?? '',
    display_name: row.display_name ?? '',
    role: row.role,
    status: row.status,
  };
}

/** The user with `id`, or undefined. */
export function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The user owning access token `token`, or undefined. A blank token never matches (on PostgreSQL
 * `char(32)` compares blank-padded, so '' would equal an empty stored token).
 */
export async function findUserByAccessToken(db: Db, token: string): Promise<UserRow | undefined> {
  if (token.trim() === '' || !isSearchable(token)) return undefined;
  return db.selectFrom('users').selectAll().where('access_token', '=', token).orderBy('id').executeTakeFirst();
}

/** Login lookup: by username first, then by e-mail (lowest id wins), as one-api. */
export async function findUserForLogin(db: Db, name: string): Promise<UserRow | undefined> {
  if (!isSearchable(name)) return undefined;
  const byName = await db.selectFrom('users').selectAll().where('username', '=', name).orderBy('id').executeTakeFirst();
  if (byName !== undefined) return byName;
  return db.selectFrom('users').selectAll().where('email', '=', name).orderBy('id').executeTakeFirst();
}
