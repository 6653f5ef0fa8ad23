import type { Context, Hono } from "hono";
import type { ServiceContext } from "../context.ts";
import { badRequest, notFound, unprocessable } from "./errors.ts";
import { requireAdmin, requireUser } from "./guards.ts";
import { readParams } from "./params.ts";

/**
 * Features Teamboard does not use answer as a GoTrue with them switched off
 * answers (same status, code and message), not with a bare 404: SAML SSO,
 * manual identity linking, Web3 and ID-token sign-in. Which
 * middleware runs first (authentication, then the feature check) follows
 * GoTrue's router, so a caller sees the same error in the same order.
 */
const samlDisabled = () => notFound("saml_provider_disabled", "SAML 2.0 is disabled");
const linkingDisabled = () => notFound("manual_linking_disabled", "Manual linking is disabled");

/** The issuer GoTrue names for an ID-token provider. */
const ISSUERS: Record<string, string> = {
  google: "https://accounts.google.com",
  apple: "https://appleid.apple.com",
  azure: "https://login.microsoftonline.com/common/v2.0",
  facebook: "https://www.facebook.com",
  keycloak: "",
  kakao: "https://kauth.kakao.com",
};

export function mountDisabledFeatureRoutes(app: Hono, ctx: ServiceContext) {
  const saml = () => {
    throw samlDisabled();
  };
  app.post("/sso", saml);
  app.get("/sso/saml/metadata", saml);
  app.post("/sso/saml/acs", saml);
  app.all("/admin/sso/*", async (c) => {
    await requireAdmin(ctx, c);
    throw samlDisabled();
  });
  app.all("/admin/sso", async (c) => {
    await requireAdmin(ctx, c);
    throw samlDisabled();
  });

  const linking = async (c: Context) => {
    await requireUser(ctx, c);
    throw linkingDisabled();
  };
  app.get("/user/identities/authorize", linking);
  app.delete("/user/identities/:id", linking);
}

/** grant_type=web3: no Web3 provider is enabled. */
export function web3Grant(): never {
  throw unprocessable("web3_provider_disabled", "Web3 provider is disabled");
}

/**
 * grant_type=id_token: ID tokens can't be checked offline (the provider's
 * keys are fetched by OIDC discovery), so a configured provider answers as a
 * token that failed verification, and any other as not enabled.
 */
export async function idTokenGrant(ctx: ServiceContext, c: Context): Promise<never> {
  const p = await readParams(c, ctx.config.maxBodyBytes, "IdTokenGrantParams", {
    id_token: "string",
    access_token: "string",
    nonce: "string",
    provider: "string",
    client_id: "string",
    issuer: "string",
    link_identity: "bool",
  });
  const provider = p.provider;
  if (provider === "" && p.issuer === "") {
    throw badRequest("validation_failed", "provider or client_id and issuer required");
  }
  if (p.id_token === "") throw badRequest("validation_failed", "id_token required");
  if (provider && ctx.config.auth.externalProviders[provider]) {
    throw badRequest("validation_failed", "Bad ID token");
  }
  const issuer = p.issuer || ISSUERS[provider] || provider;
  throw badRequest("provider_disabled", `Provider (issuer ${JSON.stringify(issuer)}) is not enabled`);
}
