import * as t from 'io-ts';

/** A user as the server serialises it (contract §2.1.1). Hidden columns come back as "". */
export const User = t.intersection([
  t.type({
    id: t.number,
    username: t.string,
    display_name: t.string,
    role: t.number,
    status: t.number,
  }),
  t.partial({
    password: t.string,
    email: t.string,
    github_id: t.string,
    wechat_id: t.string,
    lark_id: t.string,
    oidc_id: t.string,
    verification_code: t.string,
    access_token: t.string,
    quota: t.number,
    used_quota: t.number,
    request_count: t.number,
    group: t.string,
    aff_code: t.string,
    inviter_id: t.number,
  }),
]);
export type User = t.TypeOf<typeof User>;

/** `POST /api/user/manage` answers only the new role and status. */
export const ManagedUser = t.type({ role: t.number, status: t.number });
export type ManagedUser = t.TypeOf<typeof ManagedUser>;

export const UserManageAction = t.keyof({ promote: null, demote: null, delete: null, enable: null, disable: null });
export type UserManageAction = t.TypeOf<typeof UserManageAction>;

export const LoginPayload = t.type({ username: t.string, password: t.string });
export type LoginPayload = t.TypeOf<typeof LoginPayload>;

export const RegisterPayload = t.type({
  username: t.string,
  password: t.string,
  password2: t.string,
  email: t.string,
  verification_code: t.string,
  aff_code: t.string,
});
export type RegisterPayload = t.TypeOf<typeof RegisterPayload>;

/** Admin create (`POST /api/user/`). */
export const UserCreatePayload = t.intersection([
  t.type({ username: t.string, password: t.string }),
  t.partial({ display_name: t.string }),
]);
export type UserCreatePayload = t.TypeOf<typeof UserCreatePayload>;

/** Own profile update (`PUT /api/user/self`): empty fields mean unchanged. */
export const SelfUpdatePayload = t.partial({ username: t.string, display_name: t.string, password: t.string });
export type SelfUpdatePayload = t.TypeOf<typeof SelfUpdatePayload>;

/** Admin update (`PUT /api/user/`). */
export const UserUpdatePayload = t.intersection([
  t.type({ id: t.number }),
  t.partial({
    username: t.string,
    display_name: t.string,
    password: t.string,
    group: t.string,
    quota: t.number,
    email: t.string,
    role: t.number,
    status: t.number,
  }),
]);
export type UserUpdatePayload = t.TypeOf<typeof UserUpdatePayload>;

/** One row of `GET /api/user/dashboard` (PascalCase keys on the wire, contract §2.4.8). */
export const DashboardRow = t.type({
  Day: t.string,
  ModelName: t.string,
  RequestCount: t.number,
  Quota: t.number,
  PromptTokens: t.number,
  CompletionTokens: t.number,
});
export type DashboardRow = t.TypeOf<typeof DashboardRow>;
