import crypto from "node:crypto";
import type { Context, Hono } from "hono";
import type { ServiceContext } from "../context.ts";
import type { OutgoingMail } from "../mail/mailer.ts";
import { prepareEmail, type EmailKind } from "./emails.ts";
import { badRequest, notFound, unprocessable } from "./errors.ts";
import { requireAdmin } from "./guards.ts";
import { readParams } from "./params.ts";
import { checkPasswordStrength, hashPassword } from "./passwords.ts";
import { isRedirectUrlValid } from "./redirects.ts";
import { sendAll } from "./emails.ts";
import { validateEmail } from "./params.ts";
import { redirectFor } from "./redirects.ts";
import { logout } from "./sessions.ts";
import {
  confirmUser,
  findUserByEmail,
  findUserById,
  insertUser,
  isConfirmed,
  isUuid,
  mergeMetadata,
  userJson,
  type UserRow,
} from "./users.ts";

/**
 * The admin API (service role key only): users and generated links, as
 * supabase.auth.admin calls them.
 */
const EMAIL_EXISTS = "A user with this email address has already been registered";

/** Go durations as GoTrue's ban_duration takes them ("24h", "90m", "1h30m", "none"). */
export function parseGoDuration(s: string): number | null {
  if (!/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(s)) return null;
  const unit: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) total += Number(m[1]) * unit[m[2]];
  return total;
}

export async function loadUser(ctx: ServiceContext, c: Context): Promise<UserRow> {
  const id = c.req.param("id") ?? "";
  if (!isUuid(id)) throw notFound("validation_failed", "user_id must be an UUID");
  const user = await findUserById(ctx.db, id);
  if (!user) throw notFound("user_not_found", "User not found");
  return user;
}

function banUntil(duration: string): string | null | undefined {
  if (duration === "") return undefined;
  if (duration === "none") return null;
  const ms = parseGoDuration(duration);
  if (ms === null)
    throw badRequest("validation_failed", `invalid format for ban duration: time: invalid duration "${duration}"`);
  return new Date(Date.now() + ms).toISOString();
}

export function mountAdminRoutes(app: Hono, ctx: ServiceContext) {
  const cfg = ctx.config.auth;
  const maxBody = ctx.config.maxBodyBytes;

  app.use("/admin/*", async (c, next) => {
    await requireAdmin(ctx, c);
    await next();
  });
  app.use("/invite", async (c, next) => {
    await requireAdmin(ctx, c);
    await next();
  });

  app.get("/admin/users", async (c) => {
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
    return c.json({ users, aud: "authenticated" });
  });

  app.post("/admin/users", async (c) => {
    const p = await readParams(c, maxBody, "AdminUserParams", {
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
    if (await findUserByEmail(ctx.db, email)) throw unprocessable("email_exists", EMAIL_EXISTS);
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
    return c.json(userJson(user));
  });

  app.get("/admin/users/:id", async (c) => c.json(userJson(await loadUser(ctx, c))));

  app.put("/admin/users/:id", async (c) => {
    const user = await loadUser(ctx, c);
    const p = await readParams(c, maxBody, "AdminUserParams", {
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
      if (other && other.id !== user.id) throw unprocessable("email_exists", EMAIL_EXISTS);
    }
    let hash: string | null = null;
    if (p.password !== null) {
      checkPasswordStrength(p.password, cfg);
      hash = await hashPassword(p.password, cfg.bcryptCost);
    }
    const until = banUntil(p.ban_duration);
    const updated = await ctx.db.transaction(async (tx) => {
      if (p.role !== "") await tx.query("update auth.users set role = $2 where id = $1", [user.id, p.role]);
      if (email !== "" && email !== user.email) {
        await tx.query(
          "update auth.users set email = $2, email_change = '', email_change_token_new = '' where id = $1",
          [user.id, email],
        );
        await tx.query(
          `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text)
           where user_id = $1 and provider = 'email'`,
          [user.id, email],
        );
      }
      if (hash !== null) {
        await tx.query("update auth.users set encrypted_password = $2 where id = $1", [user.id, hash]);
        await logout(tx, user.id, null, "global");
      }
      if (p.email_confirm === true) await confirmUser(tx, user.id);
      if (p.email_confirm === false)
        await tx.query("update auth.users set email_confirmed_at = null where id = $1", [user.id]);
      if (p.user_metadata !== null) {
        await tx.query("update auth.users set raw_user_meta_data = $2 where id = $1", [
          user.id,
          JSON.stringify(mergeMetadata((await findUserById(tx, user.id))?.raw_user_meta_data ?? {}, p.user_metadata)),
        ]);
      }
      if (p.app_metadata !== null) {
        await tx.query("update auth.users set raw_app_meta_data = $2 where id = $1", [
          user.id,
          JSON.stringify(mergeMetadata((await findUserById(tx, user.id))?.raw_app_meta_data ?? {}, p.app_metadata)),
        ]);
      }
      if (until !== undefined)
        await tx.query("update auth.users set banned_until = $2 where id = $1", [user.id, until]);
      await tx.query("update auth.users set updated_at = now() where id = $1", [user.id]);
      return (await findUserById(tx, user.id)) as UserRow;
    });
    return c.json(userJson(updated));
  });

  app.delete("/admin/users/:id", async (c) => {
    const user = await loadUser(ctx, c);
    await ctx.db.query("delete from auth.users where id = $1", [user.id]);
    return c.json({});
  });

  app.post("/invite", async (c) => {
    const p = await readParams(c, maxBody, "InviteParams", { email: "string", data: "object" });
    const email = validateEmail(p.email);
    const redirectTo = redirectFor(ctx, c);
    const existing = await findUserByEmail(ctx.db, email);
    if (existing && isConfirmed(existing)) throw unprocessable("email_exists", EMAIL_EXISTS);
    const mails: OutgoingMail[] = [];
    const user = await ctx.db.transaction(async (tx) => {
      const id =
        existing?.id ??
        (await insertUser(tx, { email, passwordHash: null, userMetadata: p.data ?? {}, provider: "email" }));
      const u = (await findUserById(tx, id)) as UserRow;
      mails.push((await prepareEmail(ctx, tx, u, "invite", { redirectTo, enforceInterval: false })).mail);
      return (await findUserById(tx, id)) as UserRow;
    });
    await sendAll(ctx, mails);
    return c.json(userJson(user));
  });

  app.post("/admin/generate_link", async (c) => {
    const p = await readParams(c, maxBody, "GenerateLinkParams", {
      type: "string",
      email: "string",
      new_email: "string",
      password: "string",
      data: "object",
      redirect_to: "string",
    });
    const email = validateEmail(p.email);
    const redirectTo = isRedirectUrlValid(cfg, p.redirect_to) ? p.redirect_to : redirectFor(ctx, c);
    let type = p.type;
    let password = p.password;
    const existing = await findUserByEmail(ctx.db, email);
    if (!existing) {
      if (type === "magiclink") {
        type = "signup";
        password = `${crypto.randomBytes(32).toString("base64url")}aA1`;
      } else if (["recovery", "email_change_current", "email_change_new"].includes(type)) {
        throw notFound("user_not_found", "User with this email not found");
      }
    }
    if (type === "signup" && !existing) checkPasswordStrength(password, cfg);
    const passwordHash = type === "signup" && !existing ? await hashPassword(password, cfg.bcryptCost) : null;
    const result = await ctx.db.transaction(async (tx) => {
      let user = existing;
      let kind: EmailKind;
      let newEmail: string | undefined;
      switch (type) {
        case "magiclink":
        case "recovery":
          kind = type;
          break;
        case "invite":
          if (user && isConfirmed(user)) throw unprocessable("email_exists", EMAIL_EXISTS);
          if (!user) {
            const id = await insertUser(tx, {
              email,
              passwordHash: null,
              userMetadata: p.data ?? {},
              provider: "email",
            });
            user = await findUserById(tx, id);
          }
          kind = "invite";
          break;
        case "signup":
          if (user && isConfirmed(user)) throw unprocessable("email_exists", EMAIL_EXISTS);
          if (!user) {
            const id = await insertUser(tx, { email, passwordHash, userMetadata: p.data ?? {}, provider: "email" });
            user = await findUserById(tx, id);
          } else if (p.data) {
            await tx.query("update auth.users set raw_user_meta_data = $2 where id = $1", [
              user.id,
              JSON.stringify(mergeMetadata(user.raw_user_meta_data, p.data)),
            ]);
          }
          kind = "signup";
          break;
        case "email_change_current":
          if (!cfg.secureEmailChange)
            throw badRequest("validation_failed", "Enable secure email change to generate link for current email");
        // falls through
        case "email_change_new": {
          newEmail = validateEmail(p.new_email);
          const other = await findUserByEmail(tx, newEmail);
          if (other && other.id !== user!.id) throw unprocessable("email_exists", EMAIL_EXISTS);
          kind = "email_change";
          break;
        }
        default:
          throw badRequest("validation_failed", `Invalid email action link type requested: ${type}`);
      }
      const prepared = await prepareEmail(ctx, tx, user as UserRow, kind, {
        redirectTo,
        newEmail,
        enforceInterval: false,
        emailChangeLink: type === "email_change_current" ? "current" : type === "email_change_new" ? "new" : undefined,
      });
      const fresh = (await findUserById(tx, (user as UserRow).id)) as UserRow;
      return {
        ...userJson(fresh),
        action_link: prepared.actionLink,
        email_otp: prepared.otp,
        hashed_token: prepared.hashedToken,
        verification_type: type,
        redirect_to: redirectTo,
      };
    });
    return c.json(result);
  });
}

export { sendAll };
