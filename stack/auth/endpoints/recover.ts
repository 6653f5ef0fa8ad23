/** POST /recover: a password recovery link and code by email (an unknown address gets the same answer, and no email). */
import { prepareAndSend } from "../emails.ts";
import { unprocessable } from "../errors.ts";
import { readParams, validateEmail } from "../params.ts";
import { validatePkceParams } from "../pkce.ts";
import { redirectFor } from "../redirects.ts";
import { json, type Handler } from "../router.ts";
import { findUserByEmail } from "../users.ts";

export const recover: Handler = async (c, _state, { ctx }) => {
  const p = await readParams(c, ctx.config.maxBodyBytes, "RecoverParams", {
    email: "string",
    code_challenge: "string",
    code_challenge_method: "string",
  });
  if (p.email === "") throw unprocessable("validation_failed", "Password recovery requires an email");
  const email = validateEmail(p.email);
  validatePkceParams(p.code_challenge_method, p.code_challenge);
  const user = await findUserByEmail(ctx.db, email);
  if (!user) return json(c, {});
  await prepareAndSend(ctx, user, "recovery", { challenge: p, redirectTo: redirectFor(ctx, c) });
  return json(c, {});
};
