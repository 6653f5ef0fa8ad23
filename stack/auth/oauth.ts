import type { Context, Hono } from "hono";
import { localProviderEnabled } from "../config.ts";
import type { ServiceContext } from "../context.ts";
import type { Queryable } from "../db/types.ts";
import { AuthError, badRequest } from "./errors.ts";
import { requestMeta } from "./guards.ts";
import { createFlowState, validatePkceParams } from "./pkce.ts";
import { readBody } from "./params.ts";
import { validateEmail } from "./params.ts";
import { errorRedirect, redirectFor, sessionRedirect } from "./redirects.ts";
import { issueSession } from "./sessions.ts";
import {
  addProvider,
  confirmUser,
  findUserByEmail,
  findUserById,
  insertIdentity,
  insertUser,
  type UserRow,
} from "./users.ts";

/**
 * Sign-in with an external provider: GET /authorize sends the browser to the
 * provider, the provider comes back to /callback, and the browser returns to
 * redirect_to with ?code= (PKCE) or tokens in the fragment (implicit).
 *
 * `local` is a built-in provider for development and tests: its "login page"
 * is a consent form served by the stack where you type an email address, so
 * signInWithOAuth round-trips offline. Configured providers
 * (config.auth.externalProviders) use the standard authorization-code flow.
 */
const STATE_LIFETIME = 600;

interface OAuthState {
  provider: string;
  referrer: string;
  flow_state_id: string | null;
}

async function signState(ctx: ServiceContext, state: OAuthState): Promise<string> {
  return ctx.keys.sign({ ...state, aud: "oauth-state" }, { expiresIn: STATE_LIFETIME });
}

async function readState(ctx: ServiceContext, token: string | undefined): Promise<OAuthState> {
  if (!token) throw badRequest("bad_oauth_state", "OAuth state parameter missing");
  try {
    const claims = await ctx.keys.verify(token);
    if (claims.aud !== "oauth-state" || typeof claims.provider !== "string" || typeof claims.referrer !== "string")
      throw new Error();
    return {
      provider: claims.provider,
      referrer: claims.referrer,
      flow_state_id: (claims.flow_state_id as string | null) ?? null,
    };
  } catch {
    throw badRequest("bad_oauth_state", "OAuth callback with invalid state");
  }
}

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

/** Finds or creates the user behind a provider identity, linking by verified email. */
async function userForIdentity(
  q: Queryable,
  provider: string,
  providerId: string,
  email: string,
  data: Record<string, unknown>,
): Promise<UserRow> {
  const { rows } = await q.query<{ user_id: string }>(
    "select user_id::text as user_id from auth.identities where provider = $1 and provider_id = $2",
    [provider, providerId],
  );
  const identityData = { sub: providerId, email, email_verified: true, phone_verified: false, ...data };
  if (rows[0]) {
    await q.query(
      "update auth.identities set identity_data = $3, last_sign_in_at = now(), updated_at = now() where provider = $1 and provider_id = $2",
      [provider, providerId, JSON.stringify(identityData)],
    );
    return (await findUserById(q, rows[0].user_id)) as UserRow;
  }
  const existing = await findUserByEmail(q, email);
  if (existing) {
    await insertIdentity(q, existing.id, provider, providerId, identityData);
    await addProvider(q, existing.id, provider);
    await confirmUser(q, existing.id);
    return (await findUserById(q, existing.id)) as UserRow;
  }
  const id = await insertUser(
    q,
    { email, passwordHash: null, userMetadata: { ...identityData }, provider, confirmed: true },
    { providerId, data: identityData },
  );
  return (await findUserById(q, id)) as UserRow;
}

/** Signs the user in for the flow `state` describes and returns where the browser goes next. */
async function completeSignIn(
  ctx: ServiceContext,
  c: Context,
  state: OAuthState,
  user: (q: Queryable) => Promise<UserRow>,
) {
  return ctx.db.transaction(async (tx) => {
    const u = await user(tx);
    if (state.flow_state_id) {
      const { rows } = await tx.query<{ auth_code: string }>(
        `update auth.flow_state set user_id = $2, auth_code_issued_at = now(), updated_at = now()
         where id = $1 returning auth_code`,
        [state.flow_state_id, u.id],
      );
      if (!rows[0]) throw badRequest("flow_state_not_found", "Flow state not found");
      const url = new URL(state.referrer);
      url.searchParams.set("code", rows[0].auth_code);
      return url.toString();
    }
    const session = await issueSession(ctx, tx, u, "oauth", requestMeta(ctx, c));
    return sessionRedirect(state.referrer, session, {});
  });
}

export function mountOAuthRoutes(app: Hono, ctx: ServiceContext) {
  const cfg = ctx.config.auth;

  app.get("/authorize", async (c) => {
    const provider = c.req.query("provider") ?? "";
    const challenge = c.req.query("code_challenge") ?? "";
    const method = c.req.query("code_challenge_method") ?? "";
    const referrer = redirectFor(ctx, c);
    const configured = cfg.externalProviders[provider];
    const isLocal = provider === "local" && localProviderEnabled(cfg);
    if (!isLocal && !configured)
      throw badRequest("validation_failed", `Unsupported provider: provider ${provider} could not be found`);
    validatePkceParams(method, challenge);
    let flowStateId: string | null = null;
    if (challenge) {
      flowStateId = (
        await createFlowState(ctx.db, {
          providerType: provider,
          authenticationMethod: "oauth",
          codeChallenge: challenge,
          codeChallengeMethod: method,
          userId: null,
          referrer,
        })
      ).id;
    }
    const state = await signState(ctx, { provider, referrer, flow_state_id: flowStateId });
    if (isLocal)
      return c.redirect(`${ctx.apiUrl}/auth/v1/local-provider/consent?state=${encodeURIComponent(state)}`, 302);
    if (!configured.authorizeUrl)
      throw badRequest("validation_failed", `Provider ${provider} has no authorizeUrl configured`);
    const u = new URL(configured.authorizeUrl);
    u.searchParams.set("client_id", configured.clientId);
    u.searchParams.set("redirect_uri", `${ctx.apiUrl}/auth/v1/callback`);
    u.searchParams.set("response_type", "code");
    u.searchParams.set("state", state);
    const scopes = c.req.query("scopes");
    if (scopes) u.searchParams.set("scope", scopes);
    return c.redirect(u.toString(), 302);
  });

  app.get("/local-provider/consent", async (c) => {
    if (!localProviderEnabled(cfg))
      throw badRequest("validation_failed", "Unsupported provider: provider local could not be found");
    const state = c.req.query("state") ?? "";
    await readState(ctx, state);
    return c.html(consentPage(state));
  });

  app.post("/local-provider/consent", async (c) => {
    if (!localProviderEnabled(cfg))
      throw badRequest("validation_failed", "Unsupported provider: provider local could not be found");
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
      const next = await completeSignIn(ctx, c, state, (tx) => userForIdentity(tx, "local", email, email, data));
      return c.redirect(next, 302);
    } catch (error) {
      if (error instanceof AuthError)
        return c.redirect(errorRedirect(state.referrer, error, Boolean(state.flow_state_id)), 302);
      throw error;
    }
  });

  const callback = async (c: Context) => {
    const params =
      c.req.method === "POST"
        ? new URLSearchParams(await readBody(c, ctx.config.maxBodyBytes))
        : new URL(c.req.url).searchParams;
    const state = await readState(ctx, params.get("state") ?? undefined);
    const provider = cfg.externalProviders[state.provider];
    try {
      if (params.get("error")) {
        throw new AuthError(
          400,
          "bad_oauth_callback",
          params.get("error_description") ?? params.get("error") ?? "OAuth error",
        );
      }
      if (!provider?.tokenUrl || !provider.userInfoUrl) throw badRequest("validation_failed", "Unsupported provider");
      const tokenRes = await fetch(provider.tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: params.get("code") ?? "",
          redirect_uri: `${ctx.apiUrl}/auth/v1/callback`,
          client_id: provider.clientId,
          client_secret: provider.secret,
        }),
      });
      const tokens = (await tokenRes.json().catch(() => ({}))) as { access_token?: string };
      if (!tokenRes.ok || !tokens.access_token)
        throw badRequest("bad_oauth_callback", "Unable to exchange external code");
      const infoRes = await fetch(provider.userInfoUrl, {
        headers: { authorization: `Bearer ${tokens.access_token}`, accept: "application/json" },
      });
      const info = (await infoRes.json().catch(() => ({}))) as Record<string, unknown>;
      const email = typeof info.email === "string" ? info.email.toLowerCase() : "";
      if (!email) throw unprocessableEmail();
      const providerId = String(info.sub ?? info.id ?? email);
      const next = await completeSignIn(ctx, c, state, (tx) =>
        userForIdentity(tx, state.provider, providerId, email, info),
      );
      return c.redirect(next, 302);
    } catch (error) {
      if (error instanceof AuthError)
        return c.redirect(errorRedirect(state.referrer, error, Boolean(state.flow_state_id)), 302);
      throw error;
    }
  };
  app.get("/callback", callback);
  app.post("/callback", callback);
}

function unprocessableEmail() {
  return new AuthError(422, "provider_email_needs_verification", "Error getting user email from external provider");
}
