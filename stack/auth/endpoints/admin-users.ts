/**
 * /admin/users (service role only): listing, creating, reading, updating and
 * deleting users, as supabase.auth.admin calls them (GoTrue's admin.go).
 */
import type { Queryable } from "../../db/types.ts";
import { badRequest, databaseFailure, emailExists } from "../errors.ts";
import { readParams, validateEmail } from "../params.ts";
import { checkPasswordStrength, hashPassword } from "../passwords.ts";
import { json, userOf, type Handler } from "../router.ts";
import { logout } from "../sessions.ts";
import {
  confirmUser,
  findUserByEmail,
  findUserById,
  insertUser,
  isUuid,
  mergeMetadata,
  userJson,
  type UserRow,
} from "../users.ts";

/** Go durations as GoTrue's ban_duration takes them ("24h", "90m", "1h30m", "none"). */
export function parseGoDuration(s: string): number | null {
  if (!/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(s)) return null;
  const unit: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) total += Number(m[1]) * unit[m[2]];
  return total;
}

/** banned_until for a ban_duration: undefined leaves it, null lifts the ban. */
function banUntil(duration: string): string | null | undefined {
  if (duration === "") return undefined;
  if (duration === "none") return null;
  const ms = parseGoDuration(duration);
  if (ms === null)
    throw badRequest("validation_failed", `invalid format for ban duration: time: invalid duration "${duration}"`);
  return new Date(Date.now() + ms).toISOString();
}

/** GET /admin/users: a page of users, with GoTrue's x-total-count and link headers. */
export const adminUsers: Handler = async (c, _state, { ctx }) => {
  for (const name of ["page", "per_page"]) {
    const raw = c.req.query(name);
    if (raw !== undefined && raw !== "" && !/^\d+$/.test(raw)) {
      throw badRequest(
        "validation_failed",
        `Bad Pagination Parameters: strconv.ParseUint: parsing ${JSON.stringify(raw)}: invalid syntax`,
      );
    }
  }
  const page = Math.max(1, Number.parseInt(c.req.query("page") ?? "1", 10) || 1);
  const perPage = Math.min(1000, Math.max(1, Number.parseInt(c.req.query("per_page") ?? "50", 10) || 50));
  const { rows: countRows } = await ctx.db.query<{ n: number }>(
    "select count(*)::int as n from auth.users where aud = 'authenticated'",
  );
  const total = countRows[0].n;
  const { rows } = await ctx.db.query<{ id: string }>(
    "select id from auth.users where aud = 'authenticated' order by created_at desc, id limit $1 offset $2",
    [perPage, (page - 1) * perPage],
  );
  const users = [];
  for (const r of rows) {
    const u = await findUserById(ctx.db, r.id);
    if (u) users.push(userJson(u));
  }
  const base = `${ctx.apiUrl}/auth/v1/admin/users`;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const links = [];
  if (page < lastPage) links.push(`<${base}?page=${page + 1}&per_page=${perPage}>; rel="next"`);
  links.push(`<${base}?page=${lastPage}&per_page=${perPage}>; rel="last"`);
  c.header("x-total-count", String(total));
  c.header("link", links.join(", "));
  return json(c, { users, aud: "authenticated" });
};

/** POST /admin/users */
export const adminUserCreate: Handler = async (c, _state, { ctx }) => {
  const cfg = ctx.config.auth;
  const p = await readParams(c, ctx.config.maxBodyBytes, "AdminUserParams", {
    id: "string",
    email: "string",
    phone: "string",
    password: "string?",
    password_hash: "string",
    email_confirm: "bool",
    phone_confirm: "bool",
    user_metadata: "object",
    app_metadata: "object",
    ban_duration: "string",
    role: "string",
  });
  if (p.email === "" && p.phone === "")
    throw badRequest("validation_failed", "Cannot create a user without either an email or phone");
  if (p.phone !== "") throw badRequest("phone_provider_disabled", "Unsupported phone provider");
  const email = validateEmail(p.email);
  if (await findUserByEmail(ctx.db, email)) throw emailExists();
  if (p.password !== null && p.password_hash !== "")
    throw badRequest("validation_failed", "Only a password or a password hash should be provided");
  if (p.id !== "" && !isUuid(p.id)) throw badRequest("validation_failed", "ID must conform to the uuid v4 format");
  let hash: string | null = p.password_hash || null;
  if (p.password !== null) {
    checkPasswordStrength(p.password, cfg);
    hash = await hashPassword(p.password, cfg.bcryptCost);
  }
  const until = banUntil(p.ban_duration);
  const user = await ctx.db.transaction(async (tx) => {
    const id = await insertUser(tx, {
      id: p.id || undefined,
      email,
      passwordHash: hash,
      userMetadata: p.user_metadata ?? {},
      appMetadata: p.app_metadata ?? {},
      provider: "email",
      role: p.role || undefined,
    });
    if (p.email_confirm) await confirmUser(tx, id);
    if (until !== undefined) await tx.query("update auth.users set banned_until = $2 where id = $1", [id, until]);
    return (await findUserById(tx, id)) as UserRow;
  });
  return json(c, userJson(user));
};

/** GET /admin/users/:id */
export const adminUserGet: Handler = (c, state) => json(c, userJson(userOf(state)));

/** PUT /admin/users/:id */
export const adminUserUpdate: Handler = async (c, state, { ctx }) => {
  const cfg = ctx.config.auth;
  const user = userOf(state);
  const p = await readParams(c, ctx.config.maxBodyBytes, "AdminUserParams", {
    email: "string",
    phone: "string",
    password: "string?",
    email_confirm: "bool",
    user_metadata: "object",
    app_metadata: "object",
    ban_duration: "string",
    role: "string",
  });
  const email = p.email !== "" ? validateEmail(p.email) : "";
  if (email !== "" && email !== user.email) {
    const other = await findUserByEmail(ctx.db, email);
    if (other && other.id !== user.id) throw emailExists();
  }
  let passwordHash: string | null = null;
  if (p.password !== null) {
    checkPasswordStrength(p.password, cfg);
    passwordHash = await hashPassword(p.password, cfg.bcryptCost);
  }
  const change: AdminChange = {
    role: p.role,
    email: email !== user.email ? email : "",
    passwordHash,
    emailConfirm: p.email_confirm,
    userMetadata: p.user_metadata,
    appMetadata: p.app_metadata,
    bannedUntil: banUntil(p.ban_duration),
  };
  const updated = await ctx.db
    .transaction(async (tx) => {
      await applyAdminChange(tx, user.id, change);
      return (await findUserById(tx, user.id)) as UserRow;
    })
    .catch((error: unknown) => {
      // GoTrue's "Error updating user", with the database's refusal where it passes one on (errors.ts)
      throw databaseFailure("Error updating user", error);
    });
  return json(c, userJson(updated));
};

/** What PUT /admin/users/:id changes ("" / null / undefined: leave as it is). */
interface AdminChange {
  role: string;
  email: string;
  passwordHash: string | null;
  emailConfirm: boolean | undefined;
  userMetadata: Record<string, unknown> | null;
  appMetadata: Record<string, unknown> | null;
  bannedUntil: string | null | undefined;
}

async function applyAdminChange(tx: Queryable, userId: string, change: AdminChange) {
  if (change.role !== "") await tx.query("update auth.users set role = $2 where id = $1", [userId, change.role]);
  if (change.email !== "") {
    await tx.query("update auth.users set email = $2, email_change = '', email_change_token_new = '' where id = $1", [
      userId,
      change.email,
    ]);
    await tx.query(
      `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text)
       where user_id = $1 and provider = 'email'`,
      [userId, change.email],
    );
  }
  if (change.passwordHash !== null) {
    await tx.query("update auth.users set encrypted_password = $2 where id = $1", [userId, change.passwordHash]);
    await logout(tx, userId, null, "global");
  }
  if (change.emailConfirm === true) await confirmUser(tx, userId);
  if (change.emailConfirm === false)
    await tx.query("update auth.users set email_confirmed_at = null where id = $1", [userId]);
  for (const [column, updates] of [
    ["raw_user_meta_data", change.userMetadata],
    ["raw_app_meta_data", change.appMetadata],
  ] as const) {
    if (updates === null) continue;
    const current = (await findUserById(tx, userId))?.[column] ?? {};
    await tx.query(`update auth.users set ${column} = $2 where id = $1`, [
      userId,
      JSON.stringify(mergeMetadata(current, updates)),
    ]);
  }
  if (change.bannedUntil !== undefined)
    await tx.query("update auth.users set banned_until = $2 where id = $1", [userId, change.bannedUntil]);
  await tx.query("update auth.users set updated_at = now() where id = $1", [userId]);
}

/** DELETE /admin/users/:id */
export const adminUserDelete: Handler = async (c, state, { ctx }) => {
  await ctx.db.query("delete from auth.users where id = $1", [userOf(state).id]);
  return json(c, {});
};
