import crypto from "node:crypto";
import type { Queryable } from "../db/types.ts";

/** A row of auth.users as row_to_json prints it, with its identities. */
export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: string | null;
  invited_at: string | null;
  confirmation_token: string | null;
  confirmation_sent_at: string | null;
  recovery_token: string | null;
  recovery_sent_at: string | null;
  email_change_token_new: string | null;
  email_change_token_current: string | null;
  email_change: string | null;
  email_change_sent_at: string | null;
  email_change_confirm_status: number | null;
  last_sign_in_at: string | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
  phone: string | null;
  phone_confirmed_at: string | null;
  confirmed_at: string | null;
  banned_until: string | null;
  deleted_at: string | null;
  reauthentication_sent_at?: string | null;
  is_anonymous: boolean;
  identities: IdentityRow[];
  factors: FactorRow[];
}

/** A row of auth.mfa_factors (without the secret). */
export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: "totp" | "phone" | "webauthn";
  status: "unverified" | "verified";
  created_at: string;
  updated_at: string;
  last_challenged_at: string | null;
  phone: string | null;
}

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
  email: string | null;
}

const SELECT_USER = `
  select row_to_json(u)::jsonb || jsonb_build_object('identities', coalesce(
    (select jsonb_agg(row_to_json(i)::jsonb order by i.created_at, i.id) from auth.identities i where i.user_id = u.id),
    '[]'::jsonb)) || jsonb_build_object('factors', coalesce(
    (select jsonb_agg((row_to_json(f)::jsonb - 'secret') order by f.created_at, f.id) from auth.mfa_factors f where f.user_id = u.id),
    '[]'::jsonb)) as u
  from auth.users u`;

async function one(q: Queryable, where: string, params: unknown[]): Promise<UserRow | null> {
  const { rows } = await q.query<{ u: UserRow }>(`${SELECT_USER} where ${where} limit 1`, params);
  return rows[0]?.u ?? null;
}

export function findUserById(q: Queryable, id: string): Promise<UserRow | null> {
  if (!isUuid(id)) return Promise.resolve(null);
  return one(q, "u.id = $1", [id]);
}

export function findUserByEmail(q: Queryable, email: string): Promise<UserRow | null> {
  return one(q, "lower(u.email) = lower($1) and u.is_sso_user = false and u.aud = 'authenticated'", [email]);
}

export function isUuid(s: unknown): s is string {
  return typeof s === "string" && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
}

/** Postgres prints +00:00; GoTrue (Go) prints Z. */
export function ts(v: string | null | undefined): string | undefined {
  if (!v) return undefined;
  return v.replace(/\+00(:00)?$/, "Z");
}

export function epochMs(v: string | null | undefined): number | null {
  if (!v) return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t;
}

export function isConfirmed(u: UserRow): boolean {
  return Boolean(u.email_confirmed_at || u.phone_confirmed_at);
}

export function isBanned(u: UserRow): boolean {
  const until = epochMs(u.banned_until);
  return until !== null && until > Date.now();
}

function withoutUndefined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

export function identityJson(i: IdentityRow): Record<string, unknown> {
  return withoutUndefined({
    identity_id: i.id,
    id: i.provider_id,
    user_id: i.user_id,
    identity_data: i.identity_data,
    provider: i.provider,
    last_sign_in_at: ts(i.last_sign_in_at),
    created_at: ts(i.created_at),
    updated_at: ts(i.updated_at),
    email: i.email ?? undefined,
  });
}

/** The user object GoTrue returns (omitempty fields left out when unset). */
export function userJson(u: UserRow): Record<string, unknown> {
  return withoutUndefined({
    id: u.id,
    aud: u.aud ?? "",
    role: u.role ?? "",
    email: u.email ?? "",
    email_confirmed_at: ts(u.email_confirmed_at),
    invited_at: ts(u.invited_at),
    phone: u.phone ?? "",
    phone_confirmed_at: ts(u.phone_confirmed_at),
    confirmation_sent_at: ts(u.confirmation_sent_at),
    confirmed_at: ts(u.confirmed_at),
    recovery_sent_at: ts(u.recovery_sent_at),
    new_email: u.email_change || undefined,
    email_change_sent_at: ts(u.email_change_sent_at),
    last_sign_in_at: ts(u.last_sign_in_at),
    app_metadata: u.raw_app_meta_data ?? {},
    user_metadata: u.raw_user_meta_data ?? {},
    identities: (u.identities ?? []).map(identityJson),
    created_at: ts(u.created_at),
    updated_at: ts(u.updated_at),
    banned_until: ts(u.banned_until),
    is_anonymous: u.is_anonymous,
    factors: u.factors?.length ? u.factors.map(factorJson) : undefined,
  });
}

export function factorJson(f: FactorRow): Record<string, unknown> {
  return withoutUndefined({
    id: f.id,
    status: f.status,
    friendly_name: f.friendly_name ?? "",
    factor_type: f.factor_type,
    created_at: ts(f.created_at),
    updated_at: ts(f.updated_at),
    last_challenged_at: ts(f.last_challenged_at) ?? undefined,
    phone: f.phone || undefined,
  });
}

export interface NewUser {
  id?: string;
  email: string;
  passwordHash: string | null;
  userMetadata: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  provider: string;
  confirmed?: boolean;
  role?: string;
}

/** Inserts a user and its identity for `provider` (email: provider_id is the user id). */
export async function insertUser(
  q: Queryable,
  input: NewUser,
  identity?: { providerId: string; data: Record<string, unknown> },
) {
  const id = input.id ?? crypto.randomUUID();
  const appMetadata = { provider: input.provider, providers: [input.provider], ...(input.appMetadata ?? {}) };
  await q.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
       raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_sso_user, is_anonymous,
       confirmation_token, recovery_token, email_change_token_new, email_change)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', $2, $3, $4,
       case when $5 then now() end, $6, $7, now(), now(), false, false, '', '', '', '')`,
    [
      id,
      input.role ?? "authenticated",
      input.email.toLowerCase(),
      input.passwordHash ?? "",
      input.confirmed ?? false,
      JSON.stringify(appMetadata),
      JSON.stringify(input.userMetadata),
    ],
  );
  const data = identity?.data ?? emailIdentityData(id, input.email, input.userMetadata, input.confirmed ?? false);
  await insertIdentity(q, id, input.provider, identity?.providerId ?? id, data);
  if (input.confirmed) {
    await q.query(
      `update auth.users set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb where id = $1`,
      [id],
    );
  }
  return id;
}

export function emailIdentityData(id: string, email: string, metadata: Record<string, unknown>, verified: boolean) {
  const data: Record<string, unknown> = {
    sub: id,
    email: email.toLowerCase(),
    email_verified: verified,
    phone_verified: false,
  };
  for (const [k, v] of Object.entries(metadata)) if (!(k in data)) data[k] = v;
  return data;
}

export async function insertIdentity(
  q: Queryable,
  userId: string,
  provider: string,
  providerId: string,
  data: Record<string, unknown>,
) {
  await q.query(
    `insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values (gen_random_uuid(), $1, $2, $3, $4, now(), now(), now())`,
    [providerId, userId, JSON.stringify(data), provider],
  );
}

/** GoTrue's metadata merge: top-level keys replace, null removes. */
export function mergeMetadata(current: Record<string, unknown> | null, updates: Record<string, unknown>) {
  const out: Record<string, unknown> = { ...(current ?? {}) };
  for (const [k, v] of Object.entries(updates)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

export async function updateUserMetadata(q: Queryable, user: UserRow, updates: Record<string, unknown>) {
  const merged = mergeMetadata(user.raw_user_meta_data, updates);
  await q.query("update auth.users set raw_user_meta_data = $2, updated_at = now() where id = $1", [
    user.id,
    JSON.stringify(merged),
  ]);
}

/** Marks the email confirmed, as GoTrue's User.Confirm does. */
export async function confirmUser(q: Queryable, userId: string) {
  await q.query(
    `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = '', updated_at = now(),
       raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb
     where id = $1`,
    [userId],
  );
  await q.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now()
     where user_id = $1 and provider = 'email' and email = (select lower(email) from auth.users where id = $1)`,
    [userId],
  );
  await clearOneTimeTokens(q, userId);
}

export async function clearOneTimeTokens(q: Queryable, userId: string, tokenType?: string) {
  if (tokenType)
    await q.query("delete from auth.one_time_tokens where user_id = $1 and token_type = $2", [userId, tokenType]);
  else await q.query("delete from auth.one_time_tokens where user_id = $1", [userId]);
}

export async function saveOneTimeToken(
  q: Queryable,
  userId: string,
  tokenType: string,
  tokenHash: string,
  relatesTo: string,
) {
  await q.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
     values (gen_random_uuid(), $1, $2, $3, $4, now(), now())
     on conflict (user_id, token_type) do update set token_hash = excluded.token_hash, relates_to = excluded.relates_to, updated_at = now()`,
    [userId, tokenType, tokenHash, relatesTo.toLowerCase()],
  );
}

export async function addProvider(q: Queryable, userId: string, provider: string) {
  await q.query(
    `update auth.users set raw_app_meta_data = jsonb_set(coalesce(raw_app_meta_data, '{}'::jsonb), '{providers}',
       (select coalesce(jsonb_agg(distinct p), '[]'::jsonb) from (
          select jsonb_array_elements_text(coalesce(raw_app_meta_data->'providers', '[]'::jsonb)) as p
          union select $2) s))
     where id = $1`,
    [userId, provider],
  );
}
