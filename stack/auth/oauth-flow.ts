import type { ServiceContext } from "../context.ts";
import type { Queryable } from "../db/types.ts";
import { AuthError, badRequest } from "./errors.ts";
import { errorRedirect, sessionRedirect } from "./redirects.ts";
import { issueSession, type RequestMeta } from "./sessions.ts";
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
 * Sign-in with an external provider, the flow's parts: GET /authorize sends
 * the browser to the provider with a signed `state`, the provider comes back
 * to /callback, and the browser returns to redirect_to with ?code= (PKCE) or
 * tokens in the fragment (implicit). The endpoints are endpoints/authorize.ts,
 * endpoints/callback.ts and, for the built-in `local` provider (a consent
 * page served by the stack, so signInWithOAuth round-trips offline),
 * endpoints/local-provider.ts.
 */
const STATE_LIFETIME = 600;

export interface OAuthState {
  provider: string;
  referrer: string;
  flow_state_id: string | null;
}

export async function signState(ctx: ServiceContext, state: OAuthState): Promise<string> {
  return ctx.keys.sign({ ...state, aud: "oauth-state" }, { expiresIn: STATE_LIFETIME });
}

export async function readState(ctx: ServiceContext, token: string | undefined): Promise<OAuthState> {
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

/** Finds or creates the user behind a provider identity, linking by verified email. */
export async function userForIdentity(
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
export async function completeSignIn(
  ctx: ServiceContext,
  meta: RequestMeta,
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
    const session = await issueSession(ctx, tx, u, "oauth", meta);
    return sessionRedirect(state.referrer, session, {});
  });
}

/** The flow's referrer with the error, as GoTrue redirects a failed sign-in back. */
export function backWithError(state: OAuthState, error: AuthError): string {
  return errorRedirect(state.referrer, error, Boolean(state.flow_state_id));
}
