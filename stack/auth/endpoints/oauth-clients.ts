/**
 * The OAuth 2.1 server's client registry, as GoTrue serves it when
 * GOTRUE_OAUTH_SERVER_ENABLED is on: `/admin/oauth/clients` (register, list,
 * get, update, delete, regenerate the secret) and dynamic registration at
 * `/oauth/clients/register`. With the server off (hosted's default) every
 * one of them answers 404 "OAuth server is disabled" (the table's
 * `oauthServer` switch), after the admin check where GoTrue's router checks
 * that first. The registry itself is oauth-server.ts.
 */
import type { Context } from "hono";
import { AuthError, badRequest, forbidden } from "../errors.ts";
import {
  clientJson,
  COLUMNS,
  findClient,
  newSecret,
  registerClient,
  updateClient,
  type ClientParams,
  type ClientRow,
} from "../oauth-server.ts";
import { readBody } from "../params.ts";
import { json, type Handler } from "../router.ts";

/** The JSON body, as Go's json.Decoder reads it into the params struct (any mismatch is "Invalid JSON body"). */
async function readClientParams(c: Context, maxBytes: number): Promise<ClientParams> {
  const invalid = () => badRequest("bad_json", "Invalid JSON body");
  let raw: unknown;
  try {
    raw = JSON.parse(await readBody(c, maxBytes));
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw invalid();
  }
  if (raw === null) raw = {};
  if (typeof raw !== "object" || Array.isArray(raw)) throw invalid();
  const obj = raw as Record<string, unknown>;
  const str = (k: string): string | undefined => {
    const v = obj[k];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "string") throw invalid();
    return v;
  };
  const strings = (k: string): string[] | undefined => {
    const v = obj[k];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw invalid();
    return v as string[];
  };
  return {
    redirect_uris: strings("redirect_uris"),
    grant_types: strings("grant_types"),
    client_type: str("client_type"),
    token_endpoint_auth_method: str("token_endpoint_auth_method"),
    client_name: str("client_name"),
    client_uri: str("client_uri"),
    logo_uri: str("logo_uri"),
  };
}

const clientId = (c: Context) => c.req.param("client_id") ?? "";

/** POST /admin/oauth/clients */
export const oauthClientRegister: Handler = async (c, _state, { ctx }) => {
  const { row, secret } = await registerClient(ctx.db, await readClientParams(c, ctx.config.maxBodyBytes), "manual");
  return json(c, clientJson(row, secret), 201);
};

/** GET /admin/oauth/clients */
export const oauthClientList: Handler = async (c, _state, { ctx }) => {
  const { rows } = await ctx.db.query<ClientRow>(
    `select ${COLUMNS} from auth.oauth_clients where deleted_at is null order by created_at desc, id`,
  );
  // Go's omitempty leaves an empty list out
  return json(c, rows.length ? { clients: rows.map((r) => clientJson(r)) } : {});
};

/** GET /admin/oauth/clients/:client_id */
export const oauthClientGet: Handler = async (c, _state, { ctx }) =>
  json(c, clientJson(await findClient(ctx.db, clientId(c))));

/** PUT /admin/oauth/clients/:client_id */
export const oauthClientUpdate: Handler = async (c, _state, { ctx }) => {
  const client = await findClient(ctx.db, clientId(c));
  const p = await readClientParams(c, ctx.config.maxBodyBytes);
  return json(c, clientJson(await updateClient(ctx.db, client, p)));
};

/** DELETE /admin/oauth/clients/:client_id */
export const oauthClientDelete: Handler = async (c, _state, { ctx }) => {
  const client = await findClient(ctx.db, clientId(c));
  await ctx.db.query("update auth.oauth_clients set deleted_at = now(), updated_at = now() where id = $1", [client.id]);
  return c.body(null, 204);
};

/** POST /admin/oauth/clients/:client_id/regenerate_secret */
export const oauthClientRegenerateSecret: Handler = async (c, _state, { ctx }) => {
  const client = await findClient(ctx.db, clientId(c));
  if (client.client_type !== "confidential")
    throw badRequest("validation_failed", "Cannot regenerate secret for public client");
  const { secret, hash } = newSecret();
  const { rows } = await ctx.db.query<ClientRow>(
    `update auth.oauth_clients set client_secret_hash = $2, updated_at = now() where id = $1 returning ${COLUMNS}`,
    [client.id, hash],
  );
  return json(c, clientJson(rows[0], secret));
};

/** POST /oauth/clients/register: dynamic registration, when allowed. */
export const oauthClientDynamicRegister: Handler = async (c, _state, { ctx }) => {
  if (!ctx.config.auth.oauthServer.allowDynamicRegistration)
    throw forbidden("oauth_dynamic_client_registration_disabled", "Dynamic client registration is not enabled");
  const { row, secret } = await registerClient(ctx.db, await readClientParams(c, ctx.config.maxBodyBytes), "dynamic");
  return json(c, clientJson(row, secret), 201);
};
