import crypto from "node:crypto";
import type { Queryable } from "../db/types.ts";
import { badRequest, notFound } from "./errors.ts";
import { isUuid, ts } from "./users.ts";

/**
 * The OAuth 2.1 server's client registry, as GoTrue keeps it
 * (auth.oauth_clients): a client's JSON, the checks of what a registration
 * or an update asks for (in GoTrue's words), registering, updating and
 * secrets. The endpoints are endpoints/oauth-clients.ts; the authorization
 * flow itself (`/oauth/authorize`, consent, `/oauth/token`) is not served:
 * see docs/decisions/0013.
 */

export type ClientType = "public" | "confidential";
const AUTH_METHODS = ["none", "client_secret_basic", "client_secret_post"] as const;

export interface ClientRow {
  id: string;
  client_secret_hash: string | null;
  registration_type: "dynamic" | "manual";
  redirect_uris: string;
  grant_types: string;
  client_name: string | null;
  client_uri: string | null;
  logo_uri: string | null;
  client_type: ClientType;
  token_endpoint_auth_method: string;
  created_at: string;
  updated_at: string;
}

export const COLUMNS = `id, client_secret_hash, registration_type, redirect_uris, grant_types, client_name, client_uri, logo_uri,
  client_type, token_endpoint_auth_method, created_at, updated_at`;

/** GoTrue's OAuthServerClientResponse: empty fields are left out (Go's omitempty). */
export function clientJson(row: ClientRow, secret?: string): Record<string, unknown> {
  const body: Record<string, unknown> = { client_id: row.id };
  if (secret) body.client_secret = secret;
  body.client_type = row.client_type;
  const put = (key: string, v: unknown) => {
    if (v !== "" && v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0)) body[key] = v;
  };
  put("redirect_uris", row.redirect_uris === "" ? [] : row.redirect_uris.split(","));
  put("token_endpoint_auth_method", row.token_endpoint_auth_method);
  put("grant_types", row.grant_types === "" ? [] : row.grant_types.split(","));
  put("response_types", ["code"]);
  put("client_name", row.client_name);
  put("client_uri", row.client_uri);
  put("logo_uri", row.logo_uri);
  put("registration_type", row.registration_type);
  body.created_at = ts(row.created_at);
  body.updated_at = ts(row.updated_at);
  return body;
}

/** A validation message as GoTrue's admin register handler wraps it: the inner error's "<status>: <message>". */
class ClientParamError extends Error {}

function validateRedirectUri(uri: string): string | null {
  if (uri === "") return "redirect URI cannot be empty";
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return "invalid URL format";
  }
  if (!u.protocol || !u.host) return "must have scheme and host";
  const scheme = u.protocol.slice(0, -1).toLowerCase();
  if (["javascript", "data", "file", "vbscript", "about", "blob"].includes(scheme))
    return `scheme '${u.protocol.slice(0, -1)}' is not allowed for security reasons`;
  if (scheme === "http" && !["localhost", "127.0.0.1", "[::1]"].includes(u.hostname))
    return "HTTP scheme only allowed for localhost";
  if (u.hash !== "") return "fragment not allowed in redirect URI";
  return null;
}

function checkRedirectUris(uris: string[] | undefined, required: boolean) {
  if (required && (!uris || uris.length === 0)) throw new ClientParamError("redirect_uris is required");
  if (!uris || uris.length === 0) throw new ClientParamError("redirect_uris cannot be empty");
  if (uris.length > 10) throw new ClientParamError("redirect_uris cannot exceed 10 items");
  for (const uri of uris) {
    const problem = validateRedirectUri(uri);
    if (problem) throw new ClientParamError(`invalid redirect_uri '${uri}': ${problem}`);
  }
}

function checkGrantTypes(types: string[]) {
  if (types.length === 0) throw new ClientParamError("grant_types cannot be empty");
  if (types.some((t) => t !== "authorization_code" && t !== "refresh_token"))
    throw new ClientParamError("grant_types must only contain 'authorization_code' and/or 'refresh_token'");
}

function checkUri(name: "client_uri" | "logo_uri", v: string | undefined) {
  if (!v) return;
  if (v.length > 2048) throw new ClientParamError(`${name} cannot exceed 2048 characters`);
  try {
    new URL(v);
  } catch {
    throw new ClientParamError(`${name} must be a valid URL`);
  }
}

function checkName(v: string | undefined) {
  if (v && v.length > 1024) throw new ClientParamError("client_name cannot exceed 1024 characters");
}

const inferClientType = (method: string): ClientType => (method === "none" ? "public" : "confidential");
const goList = (xs: readonly string[]) => `[${xs.join(" ")}]`;

/** A new secret (32 random bytes) and the SHA-256 hash that is kept of it. */
export function newSecret(): { secret: string; hash: string } {
  const secret = crypto.randomBytes(32).toString("base64url");
  return { secret, hash: crypto.createHash("sha256").update(secret).digest("base64url") };
}

/** What a registration or an update may carry (undefined: not given). */
export interface ClientParams {
  redirect_uris?: string[];
  grant_types?: string[];
  client_type?: string;
  token_endpoint_auth_method?: string;
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
}

/** Registers a client; a confidential one gets its secret (returned once, kept hashed). */
export async function registerClient(q: Queryable, p: ClientParams, registrationType: "dynamic" | "manual") {
  try {
    checkRedirectUris(p.redirect_uris, true);
    if (p.grant_types && p.grant_types.length > 0) checkGrantTypes(p.grant_types);
    checkName(p.client_name);
    checkUri("client_uri", p.client_uri);
    checkUri("logo_uri", p.logo_uri);
    if (p.client_type && p.client_type !== "public" && p.client_type !== "confidential")
      throw new ClientParamError("client_type must be 'public' or 'confidential'");
    if (p.token_endpoint_auth_method && !(AUTH_METHODS as readonly string[]).includes(p.token_endpoint_auth_method))
      throw new ClientParamError(`token_endpoint_auth_method must be one of: ${goList(AUTH_METHODS)}`);
  } catch (error) {
    // GoTrue wraps the validation error's Error() ("400: …") in a new 400
    if (error instanceof ClientParamError) throw badRequest("validation_failed", `400: ${error.message}`);
    throw error;
  }
  if (p.client_type && p.token_endpoint_auth_method) {
    const expected = inferClientType(p.token_endpoint_auth_method);
    if (p.client_type !== expected)
      throw badRequest(
        "validation_failed",
        `client_type '${p.client_type}' is inconsistent with token_endpoint_auth_method '${p.token_endpoint_auth_method}' (expected client_type '${expected}')`,
      );
  }
  const clientType: ClientType =
    (p.client_type as ClientType | undefined) ||
    (p.token_endpoint_auth_method ? inferClientType(p.token_endpoint_auth_method) : "confidential");
  const method = p.token_endpoint_auth_method || (clientType === "public" ? "none" : "client_secret_basic");
  const grantTypes =
    p.grant_types && p.grant_types.length > 0 ? p.grant_types : ["authorization_code", "refresh_token"];
  const secret = clientType === "confidential" ? newSecret() : null;
  const { rows } = await q.query<ClientRow>(
    `insert into auth.oauth_clients (id, client_secret_hash, registration_type, redirect_uris, grant_types, client_name,
       client_uri, logo_uri, client_type, token_endpoint_auth_method)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning ${COLUMNS}`,
    [
      crypto.randomUUID(),
      secret?.hash ?? null,
      registrationType,
      (p.redirect_uris ?? []).join(","),
      grantTypes.join(","),
      p.client_name || null,
      p.client_uri || null,
      p.logo_uri || null,
      clientType,
      method,
    ],
  );
  return { row: rows[0], secret: secret?.secret };
}

/** A registered, undeleted client by the id a path names. */
export async function findClient(q: Queryable, id: string): Promise<ClientRow> {
  if (id === "") throw badRequest("validation_failed", "client_id is required");
  if (!isUuid(id)) throw badRequest("validation_failed", "invalid client_id format");
  const { rows } = await q.query<ClientRow>(
    `select ${COLUMNS} from auth.oauth_clients where id = $1 and deleted_at is null`,
    [id],
  );
  if (!rows[0]) throw notFound("oauth_client_not_found", "OAuth client not found");
  return rows[0];
}

/** Changes what `p` gives; GoTrue's checks first, some of them against the client's type. */
export async function updateClient(q: Queryable, client: ClientRow, p: ClientParams): Promise<ClientRow> {
  const given = [
    p.redirect_uris,
    p.grant_types,
    p.client_name,
    p.client_uri,
    p.logo_uri,
    p.token_endpoint_auth_method,
  ].some((v) => v !== undefined);
  if (!given) throw badRequest("validation_failed", "No fields provided for update");
  try {
    if (p.redirect_uris !== undefined) checkRedirectUris(p.redirect_uris, false);
    if (p.grant_types !== undefined) checkGrantTypes(p.grant_types);
    checkName(p.client_name);
    checkUri("client_uri", p.client_uri);
    checkUri("logo_uri", p.logo_uri);
  } catch (error) {
    if (error instanceof ClientParamError) throw badRequest("validation_failed", error.message);
    throw error;
  }
  const method = p.token_endpoint_auth_method;
  if (method !== undefined) {
    if (!(AUTH_METHODS as readonly string[]).includes(method))
      throw badRequest(
        "validation_failed",
        `invalid token_endpoint_auth_method: must be one of ${goList(AUTH_METHODS)}`,
      );
    const valid = client.client_type === "public" ? ["none"] : ["client_secret_basic", "client_secret_post"];
    if (!valid.includes(method))
      throw badRequest(
        "validation_failed",
        `token_endpoint_auth_method '${method}' is not valid for client_type '${client.client_type}'; valid methods: ${goList(valid)}`,
      );
  }
  const { rows } = await q.query<ClientRow>(
    `update auth.oauth_clients set
       redirect_uris = coalesce($2, redirect_uris), grant_types = coalesce($3, grant_types),
       client_name = case when $4::text is null then client_name else nullif($4, '') end,
       client_uri = case when $5::text is null then client_uri else nullif($5, '') end,
       logo_uri = case when $6::text is null then logo_uri else nullif($6, '') end,
       token_endpoint_auth_method = coalesce($7, token_endpoint_auth_method), updated_at = now()
     where id = $1 returning ${COLUMNS}`,
    [
      client.id,
      p.redirect_uris?.join(",") ?? null,
      p.grant_types?.join(",") ?? null,
      p.client_name ?? null,
      p.client_uri ?? null,
      p.logo_uri ?? null,
      method ?? null,
    ],
  );
  return rows[0];
}
