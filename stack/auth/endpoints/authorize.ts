/**
 * GET /authorize: sends the browser to the provider (oauth-flow.ts) with a
 * signed state, and for a PKCE client a flow state its code will complete.
 * The built-in `local` provider's "provider" is the stack's consent page.
 */
import { localProviderEnabled } from "../../config.ts";
import { badRequest } from "../errors.ts";
import { signState } from "../oauth-flow.ts";
import { createFlowState, validatePkceParams } from "../pkce.ts";
import { redirectFor } from "../redirects.ts";
import type { Handler } from "../router.ts";

export const authorize: Handler = async (c, _state, { ctx }) => {
  const cfg = ctx.config.auth;
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
};
