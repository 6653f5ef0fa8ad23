/**
 * One REST request, in PostgREST's order (App.postgrestResponse): who is
 * calling, the request parsed once (api-request.ts), its plan (plan.ts), the
 * statement printed from the plan (query.ts), run as the request's role
 * (main-tx.ts), and the answer shaped from both (response.ts). Every failure
 * becomes PostgREST's JSON error with its status.
 */
import type { Context } from "hono";
import type { ServiceContext } from "../context.ts";
import { clientIp } from "../http/client-ip.ts";
import { isIdentityError, resolveIdentity } from "../http/identity.ts";
import { parseApiRequest, requestAction } from "./api-request.ts";
import { RestError, errors, fromPgError, isPgError } from "./errors.ts";
import { type AuthResult, runMainTx } from "./main-tx.ts";
import { actionPlan } from "./plan.ts";
import { mainQuery } from "./query.ts";
import { type Reply, actionResponse, errorReply } from "./response.ts";
import type { SchemaCache } from "./schema.ts";

export interface HandlerEnv {
  ctx: ServiceContext;
  cache(): Promise<SchemaCache>;
}

export async function handleRequest(
  env: HandlerEnv,
  c: Context,
  resource: "table" | "rpc",
  name: string,
): Promise<Response> {
  let reply: Reply;
  try {
    reply = await postgrestResponse(env, c, resource, name);
  } catch (e) {
    if (e instanceof RestError) reply = errorReply(e);
    else if (isPgError(e)) reply = errorReply(fromPgError(e, true));
    else {
      console.error("[rest] unexpected error:", e);
      reply = errorReply(errors.unexpected());
    }
  }
  const body = c.req.method === "HEAD" ? null : reply.body;
  return new Response(body, { status: reply.status, headers: reply.headers });
}

async function postgrestResponse(env: HandlerEnv, c: Context, resource: "table" | "rpc", name: string): Promise<Reply> {
  const { ctx } = env;
  const action = requestAction(resource, c.req.method.toUpperCase());
  const auth = await authenticate(c, ctx);
  const cache = await env.cache();
  const caps = { plan: cache.planEnabled, geoJsonFn: cache.geoJsonFn };
  const req = await parseApiRequest(c.req.raw, action, name, ctx.config, caps);
  const plan = actionPlan(req, cache, ctx.config.rest.maxRows);
  const result = await runMainTx(ctx, auth, req, plan, mainQuery(plan, req.media), cache.preRequest);
  return actionResponse(req, plan, result);
}

/**
 * The caller's role and claims from the JWT (anon without one); PostgREST's JWT errors otherwise.
 * `caller` names who the embedded database's admission holds back (stack/db/admission.ts): the
 * token's subject, else the client's address; never the service role, which holds the key.
 */
async function authenticate(c: Context, ctx: ServiceContext): Promise<AuthResult> {
  const who = await resolveIdentity(c, ctx.keys);
  if (!isIdentityError(who)) {
    const sub = typeof who.claims.sub === "string" && who.claims.sub ? who.claims.sub : null;
    const caller =
      who.role === "service_role"
        ? undefined
        : sub
          ? `sub:${sub}`
          : `address:${clientIp(c, ctx.config.trustedProxies)}`;
    return { role: who.role, claims: who.claims, caller };
  }
  if (who.reason === "expired") throw errors.jwt(401, "PGRST303", "JWT expired");
  if (who.reason === "role") throw errors.unknownRole(who.message);
  throw errors.jwt(401, "PGRST301", who.message);
}
