/**
 * GET and POST /callback: a configured provider comes back with a code; the
 * code is exchanged for the provider's token, its userinfo names the user
 * (oauth-flow.ts finds or makes them), and the browser goes on to the flow's
 * next step, or back with the error.
 */
import type { OAuthProviderConfig } from "../../config.ts";
import type { ServiceContext } from "../../context.ts";
import { AuthError, badRequest } from "../errors.ts";
import { requestMeta } from "../guards.ts";
import { backWithError, completeSignIn, readState, userForIdentity } from "../oauth-flow.ts";
import { readBody } from "../params.ts";
import type { Handler } from "../router.ts";

export const callback: Handler = async (c, _state, { ctx }) => {
  const params =
    c.req.method === "POST"
      ? new URLSearchParams(await readBody(c, ctx.config.maxBodyBytes))
      : new URL(c.req.url).searchParams;
  const state = await readState(ctx, params.get("state") ?? undefined);
  const provider = ctx.config.auth.externalProviders[state.provider];
  try {
    if (params.get("error")) {
      throw new AuthError(
        400,
        "bad_oauth_callback",
        params.get("error_description") ?? params.get("error") ?? "OAuth error",
      );
    }
    if (!provider?.tokenUrl || !provider.userInfoUrl) throw badRequest("validation_failed", "Unsupported provider");
    const { email, providerId, info } = await providerUser(ctx, provider, params.get("code") ?? "");
    const next = await completeSignIn(ctx, requestMeta(ctx, c), state, (tx) =>
      userForIdentity(tx, state.provider, providerId, email, info),
    );
    return c.redirect(next, 302);
  } catch (error) {
    if (error instanceof AuthError) return c.redirect(backWithError(state, error), 302);
    throw error;
  }
};

/** Exchanges the code for the provider's token and reads who it is for. */
async function providerUser(ctx: ServiceContext, provider: OAuthProviderConfig, code: string) {
  const tokenRes = await fetch(provider.tokenUrl!, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: `${ctx.apiUrl}/auth/v1/callback`,
      client_id: provider.clientId,
      client_secret: provider.secret,
    }),
  });
  const tokens = (await tokenRes.json().catch(() => ({}))) as { access_token?: string };
  if (!tokenRes.ok || !tokens.access_token) throw badRequest("bad_oauth_callback", "Unable to exchange external code");
  const infoRes = await fetch(provider.userInfoUrl!, {
    headers: { authorization: `Bearer ${tokens.access_token}`, accept: "application/json" },
  });
  const info = (await infoRes.json().catch(() => ({}))) as Record<string, unknown>;
  const email = typeof info.email === "string" ? info.email.toLowerCase() : "";
  if (!email)
    throw new AuthError(422, "provider_email_needs_verification", "Error getting user email from external provider");
  return { email, providerId: String(info.sub ?? info.id ?? email), info };
}
