/**
 * Every endpoint of the auth service, top to bottom, with the middleware
 * that runs before its handler, as supabase/auth's internal/api/api.go lists
 * them. The order of a route's middleware is GoTrue's, so a caller sees the
 * same error first; the order of routes matters only where paths overlap
 * (the catch-alls at the end). Middleware: middleware.ts; each handler lives
 * in endpoints/, in the file named after its endpoint.
 */
import { adminUserDeleteFactor, adminUserFactors, adminUserUpdateFactor } from "./endpoints/admin-factors.ts";
import { adminGenerateLink } from "./endpoints/admin-generate-link.ts";
import { adminPasskeyDelete, adminPasskeyList } from "./endpoints/admin-passkeys.ts";
import {
  adminUserCreate,
  adminUserDelete,
  adminUserGet,
  adminUsers,
  adminUserUpdate,
} from "./endpoints/admin-users.ts";
import { authorize } from "./endpoints/authorize.ts";
import { callback } from "./endpoints/callback.ts";
import { challengeFactor, enrollFactor, unenrollFactor, verifyFactor } from "./endpoints/factors.ts";
import { health } from "./endpoints/health.ts";
import { invite } from "./endpoints/invite.ts";
import { jwks } from "./endpoints/jwks.ts";
import { localProviderConsent, localProviderConsentPage } from "./endpoints/local-provider.ts";
import { logout } from "./endpoints/logout.ts";
import { magicLink } from "./endpoints/magiclink.ts";
import {
  oauthClientDelete,
  oauthClientDynamicRegister,
  oauthClientGet,
  oauthClientList,
  oauthClientRegenerateSecret,
  oauthClientRegister,
  oauthClientUpdate,
} from "./endpoints/oauth-clients.ts";
import { otp } from "./endpoints/otp.ts";
import {
  passkeyAuthenticationOptions,
  passkeyAuthenticationVerify,
  passkeyDelete,
  passkeyList,
  passkeyRegistrationOptions,
  passkeyRegistrationVerify,
  passkeyUpdate,
} from "./endpoints/passkeys.ts";
import { reauthenticate } from "./endpoints/reauthenticate.ts";
import { recover } from "./endpoints/recover.ts";
import { resend } from "./endpoints/resend.ts";
import { settings } from "./endpoints/settings.ts";
import { signup } from "./endpoints/signup.ts";
import { token } from "./endpoints/token.ts";
import { userGet, userUpdate } from "./endpoints/user.ts";
import { verify, verifyLink } from "./endpoints/verify.ts";
import {
  admin,
  challengeRateLimit,
  loadFactor,
  loadUser,
  localProvider,
  manualLinking,
  notAnonymous,
  oauthServer,
  passkeys,
  saml,
  tokenRateLimit,
  user,
  verifyFactorRateLimit,
} from "./middleware.ts";
import { pageNotFound, route, type Route } from "./router.ts";

const ANY = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

export const API: Route[] = [
  route("GET", "/health", [], health),
  route("GET", "/.well-known/jwks.json", [], jwks),
  route("GET", "/settings", [], settings),

  // sign-in with an external provider, and the built-in `local` one's consent page
  route("GET", "/authorize", [], authorize),
  route(["GET", "POST"], "/callback", [], callback),
  route("GET", "/local-provider/consent", [localProvider], localProviderConsentPage),
  route("POST", "/local-provider/consent", [localProvider], localProviderConsent),

  // signing up and in (/token limits per IP itself, after the grant type's checks)
  route("POST", "/invite", [admin], invite),
  route("POST", "/signup", [], signup),
  route("POST", "/recover", [], recover),
  route("POST", "/resend", [], resend),
  route("POST", "/magiclink", [], magicLink),
  route("POST", "/otp", [], otp),
  route("POST", "/token", [], token),
  route("GET", "/verify", [tokenRateLimit], verifyLink),
  route("POST", "/verify", [tokenRateLimit], verify),

  // the signed-in user
  route("POST", "/logout", [user], logout),
  route("GET", "/reauthenticate", [user], reauthenticate),
  route("GET", "/user", [user], userGet),
  route("PUT", "/user", [user], userUpdate),
  route("GET", "/user/identities/authorize", [user, manualLinking], pageNotFound),
  route("DELETE", "/user/identities/:id", [user, manualLinking], pageNotFound),

  // multi-factor authentication
  route("POST", "/factors", [user, notAnonymous], enrollFactor),
  route("POST", "/factors/:factor_id/verify", [user, notAnonymous, loadFactor, verifyFactorRateLimit], verifyFactor),
  route("POST", "/factors/:factor_id/challenge", [user, notAnonymous, loadFactor, challengeRateLimit], challengeFactor),
  route("DELETE", "/factors/:factor_id", [user, notAnonymous, loadFactor], unenrollFactor),

  // passkeys (GoTrue checks the switch before anything else under /passkeys)
  route("POST", "/passkeys/authentication/options", [passkeys], passkeyAuthenticationOptions),
  route("POST", "/passkeys/authentication/verify", [passkeys], passkeyAuthenticationVerify),
  route("POST", "/passkeys/registration/options", [passkeys, user, notAnonymous], passkeyRegistrationOptions),
  route("POST", "/passkeys/registration/verify", [passkeys, user, notAnonymous], passkeyRegistrationVerify),
  route("GET", ["/passkeys", "/passkeys/"], [passkeys, user], passkeyList),
  route("PATCH", "/passkeys/:passkey_id", [passkeys, user], passkeyUpdate),
  route("DELETE", "/passkeys/:passkey_id", [passkeys, user], passkeyDelete),
  route([...ANY], "/passkeys/*", [passkeys], pageNotFound),

  // SAML SSO (off)
  route("POST", "/sso", [saml], pageNotFound),
  route("GET", "/sso/saml/metadata", [saml], pageNotFound),
  route("POST", "/sso/saml/acs", [saml], pageNotFound),

  // the admin API (service role)
  route("GET", "/admin/users", [admin], adminUsers),
  route("POST", "/admin/users", [admin], adminUserCreate),
  route("GET", "/admin/users/:id/factors", [admin, loadUser], adminUserFactors),
  route("DELETE", "/admin/users/:id/factors/:factor_id", [admin, loadUser, loadFactor], adminUserDeleteFactor),
  route("PUT", "/admin/users/:id/factors/:factor_id", [admin, loadUser, loadFactor], adminUserUpdateFactor),
  route("GET", "/admin/users/:id/passkeys", [admin, loadUser], adminPasskeyList),
  route("DELETE", "/admin/users/:id/passkeys/:passkey_id", [admin, loadUser], adminPasskeyDelete),
  route("GET", "/admin/users/:id", [admin, loadUser], adminUserGet),
  route("PUT", "/admin/users/:id", [admin, loadUser], adminUserUpdate),
  route("DELETE", "/admin/users/:id", [admin, loadUser], adminUserDelete),
  route("POST", "/admin/generate_link", [admin], adminGenerateLink),
  route("ALL", ["/admin/sso", "/admin/sso/*"], [admin, saml], pageNotFound),
  route("POST", "/admin/oauth/clients", [admin, oauthServer], oauthClientRegister),
  route("GET", "/admin/oauth/clients", [admin, oauthServer], oauthClientList),
  route("GET", "/admin/oauth/clients/:client_id", [admin, oauthServer], oauthClientGet),
  route("PUT", "/admin/oauth/clients/:client_id", [admin, oauthServer], oauthClientUpdate),
  route("DELETE", "/admin/oauth/clients/:client_id", [admin, oauthServer], oauthClientDelete),
  route("POST", "/admin/oauth/clients/:client_id/regenerate_secret", [admin, oauthServer], oauthClientRegenerateSecret),

  // the OAuth server's dynamic client registration
  route("POST", "/oauth/clients/register", [oauthServer], oauthClientDynamicRegister),

  // whatever else: under /admin and /invite the caller must be the service role first
  route("ALL", ["/admin/*", "/invite"], [admin], pageNotFound),
  route("ALL", "*", [], pageNotFound),
];
