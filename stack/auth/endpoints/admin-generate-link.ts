/**
 * POST /admin/generate_link (service role only): the link and code an email
 * of each kind would carry, without sending it (GoTrue's adminGenerateLink).
 * A magic link for an unknown address signs it up; an invite or sign-up link
 * makes the user when needed.
 */
import type { StackConfig } from "../../config.ts";
import type { Queryable } from "../../db/types.ts";
import { prepareEmail, type EmailKind } from "../emails.ts";
import { badRequest, emailExists, notFound } from "../errors.ts";
import { readParams, validateEmail } from "../params.ts";
import { checkPasswordStrength, hashPassword, randomPassword } from "../passwords.ts";
import { isRedirectUrlValid, redirectFor } from "../redirects.ts";
import { json, type Handler } from "../router.ts";
import {
  findUserByEmail,
  findUserById,
  insertUser,
  isConfirmed,
  mergeMetadata,
  userJson,
  type UserRow,
} from "../users.ts";

export const adminGenerateLink: Handler = async (c, _state, { ctx }) => {
  const cfg = ctx.config.auth;
  const p = await readParams(c, ctx.config.maxBodyBytes, "GenerateLinkParams", {
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
      password = randomPassword();
    } else if (["recovery", "email_change_current", "email_change_new"].includes(type)) {
      throw notFound("user_not_found", "User with this email not found");
    }
  }
  if (type === "signup" && !existing) checkPasswordStrength(password, cfg);
  const passwordHash = type === "signup" && !existing ? await hashPassword(password, cfg.bcryptCost) : null;
  const result = await ctx.db.transaction(async (tx) => {
    const target = await linkTarget(tx, cfg, type, existing, {
      email,
      passwordHash,
      data: p.data,
      newEmail: p.new_email,
    });
    const prepared = await prepareEmail(ctx, tx, target.user, target.kind, {
      redirectTo,
      newEmail: target.newEmail,
      enforceInterval: false,
      emailChangeLink: type === "email_change_current" ? "current" : type === "email_change_new" ? "new" : undefined,
    });
    const fresh = (await findUserById(tx, target.user.id)) as UserRow;
    return {
      ...userJson(fresh),
      action_link: prepared.actionLink,
      email_otp: prepared.otp,
      hashed_token: prepared.hashedToken,
      verification_type: type,
      redirect_to: redirectTo,
    };
  });
  return json(c, result);
};

interface LinkInput {
  email: string;
  passwordHash: string | null;
  data: Record<string, unknown> | null;
  newEmail: string;
}

/** The user a link of `type` is for (made when an invite or sign-up needs one) and the email kind it is. */
async function linkTarget(
  tx: Queryable,
  cfg: StackConfig["auth"],
  type: string,
  existing: UserRow | null,
  input: LinkInput,
): Promise<{ user: UserRow; kind: EmailKind; newEmail?: string }> {
  switch (type) {
    case "magiclink":
    case "recovery":
      return { user: existing as UserRow, kind: type };
    case "invite":
    case "signup": {
      if (existing && isConfirmed(existing)) throw emailExists();
      return { user: await inviteOrSignupUser(tx, type, existing, input), kind: type };
    }
    case "email_change_current":
      if (!cfg.secureEmailChange)
        throw badRequest("validation_failed", "Enable secure email change to generate link for current email");
    // falls through
    case "email_change_new": {
      const newEmail = validateEmail(input.newEmail);
      const other = await findUserByEmail(tx, newEmail);
      if (other && other.id !== existing!.id) throw emailExists();
      return { user: existing as UserRow, kind: "email_change", newEmail };
    }
    default:
      throw badRequest("validation_failed", `Invalid email action link type requested: ${type}`);
  }
}

async function inviteOrSignupUser(
  tx: Queryable,
  type: "invite" | "signup",
  existing: UserRow | null,
  input: LinkInput,
): Promise<UserRow> {
  if (!existing) {
    const passwordHash = type === "signup" ? input.passwordHash : null;
    const id = await insertUser(tx, {
      email: input.email,
      passwordHash,
      userMetadata: input.data ?? {},
      provider: "email",
    });
    return (await findUserById(tx, id)) as UserRow;
  }
  if (type === "signup" && input.data) {
    await tx.query("update auth.users set raw_user_meta_data = $2 where id = $1", [
      existing.id,
      JSON.stringify(mergeMetadata(existing.raw_user_meta_data, input.data)),
    ]);
  }
  return existing;
}
