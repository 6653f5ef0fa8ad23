/**
 * GET /settings: what the project has switched on (providers, sign-ups,
 * autoconfirm, passkeys), in GoTrue's shape; supabase-js reads it.
 */
import { localProviderEnabled } from "../../config.ts";
import { json, type Handler } from "../router.ts";

const PROVIDERS = [
  "anonymous_users",
  "apple",
  "azure",
  "bitbucket",
  "discord",
  "facebook",
  "snapchat",
  "figma",
  "fly",
  "github",
  "gitlab",
  "google",
  "keycloak",
  "kakao",
  "linkedin",
  "linkedin_oidc",
  "notion",
  "spotify",
  "slack",
  "slack_oidc",
  "workos",
  "twitch",
  "twitter",
  "email",
  "phone",
  "zoom",
];

export const settings: Handler = (c, _state, { ctx }) => {
  const cfg = ctx.config.auth;
  const external: Record<string, boolean> = {};
  for (const name of PROVIDERS) external[name] = false;
  external.email = cfg.emailEnabled;
  external.anonymous_users = cfg.anonymousSignIns;
  for (const name of Object.keys(cfg.externalProviders)) external[name] = true;
  external.local = localProviderEnabled(cfg);
  return json(c, {
    external,
    disable_signup: cfg.disableSignup,
    mailer_autoconfirm: cfg.autoconfirm,
    phone_autoconfirm: false,
    sms_provider: "",
    saml_enabled: false,
    saml_private_key_next_configured: false,
    passkeys_enabled: cfg.passkey.enabled,
  });
};
