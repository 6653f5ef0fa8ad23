/** POST /invite (service role only): an invited user and the email that lets them in. */
import type { OutgoingMail } from "../../mail/mailer.ts";
import { prepareEmail, sendAll } from "../emails.ts";
import { emailExists } from "../errors.ts";
import { readParams, validateEmail } from "../params.ts";
import { redirectFor } from "../redirects.ts";
import { json, type Handler } from "../router.ts";
import { findUserByEmail, findUserById, insertUser, isConfirmed, userJson, type UserRow } from "../users.ts";

export const invite: Handler = async (c, _state, { ctx }) => {
  const p = await readParams(c, ctx.config.maxBodyBytes, "InviteParams", { email: "string", data: "object" });
  const email = validateEmail(p.email);
  const redirectTo = redirectFor(ctx, c);
  const existing = await findUserByEmail(ctx.db, email);
  if (existing && isConfirmed(existing)) throw emailExists();
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
  return json(c, userJson(user));
};
