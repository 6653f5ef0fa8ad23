/**
 * /local-provider/consent: the built-in `local` OAuth provider's "login
 * page", served by the stack for development and tests (on when the site
 * URL is local): a form where you type the address to sign in as, with no
 * password. GET shows it; POST signs in and goes on with the flow.
 */
import { requestMeta } from "../guards.ts";
import { AuthError } from "../errors.ts";
import { backWithError, completeSignIn, readState, userForIdentity } from "../oauth-flow.ts";
import { readBody, validateEmail } from "../params.ts";
import type { Handler } from "../router.ts";

/** GET /local-provider/consent */
export const localProviderConsentPage: Handler = async (c, _state, { ctx }) => {
  const state = c.req.query("state") ?? "";
  await readState(ctx, state);
  return c.html(consentPage(state));
};

/** POST /local-provider/consent */
export const localProviderConsent: Handler = async (c, _state, { ctx }) => {
  const form = new URLSearchParams(await readBody(c, ctx.config.maxBodyBytes));
  const stateToken = form.get("state") ?? "";
  const state = await readState(ctx, stateToken);
  let email: string;
  try {
    email = validateEmail((form.get("email") ?? "").trim());
  } catch (e) {
    return c.html(consentPage(stateToken, e instanceof Error ? e.message : "Invalid email"), 400);
  }
  const name = (form.get("name") ?? "").trim().slice(0, 200);
  const data: Record<string, unknown> = name ? { name, full_name: name } : {};
  try {
    const next = await completeSignIn(ctx, requestMeta(ctx, c), state, (tx) =>
      userForIdentity(tx, "local", email, email, data),
    );
    return c.redirect(next, 302);
  } catch (error) {
    if (error instanceof AuthError) return c.redirect(backWithError(state, error), 302);
    throw error;
  }
};

function escapeHtml(s: string) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function consentPage(state: string, error?: string) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in with the local provider</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem;font-size:1rem}.error{color:#b00020}</style>
</head><body>
<h1>Local sign-in</h1>
<p><strong>Development only.</strong> This is the local stack's stand-in for an OAuth provider: it signs in as any
address you type, with no password. It is on only when the site URL is on this machine (or
<code>STACK_AUTH_LOCAL_PROVIDER=true</code> turns it on); never expose it.</p>
<p>Enter the email address to sign in as.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/auth/v1/local-provider/consent">
<input type="hidden" name="state" value="${escapeHtml(state)}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required autofocus>
<label for="name">Name (optional)</label><input id="name" name="name" type="text" autocomplete="name">
<button type="submit">Continue</button>
</form>
</body></html>`;
}
