// POST with a personal API token (`Authorization: Bearer tb_…`, or `{"token": "tb_…"}`):
// an access token of 60 seconds for the token's person, to send to the REST,
// Storage and Realtime APIs as a signed-in session's would be sent. It carries
// the token's id, team and mode (tb_token, tb_team, tb_mode), which the
// database holds it to (supabase/migrations/20261207000700_api_tokens.sql);
// a revoked or expired token gets 401 here, and its access tokens 401 from
// the REST API at once and everywhere within the minute.
// Signed with API_TOKEN_SIGNING_KEY, a private JWK (ES256) whose public half
// the project trusts: on hosted, a key imported as a standby signing key
// (docs/decisions/0036-api-tokens-and-webhooks.md); the local stack sets both.
import { corsHeaders, json, refuse } from "../_shared/http.ts";

const LIFETIME_SECONDS = 60;

interface Exchange {
  token_id: string;
  user_id: string;
  email: string | null;
  team_id: string | null;
  mode: "read" | "write";
  aal: "aal1" | "aal2";
  app_metadata: Record<string, unknown>;
}

let signingKey: Promise<{ key: CryptoKey; kid: string | undefined }> | null = null;

function key() {
  signingKey ??= (async () => {
    const jwk = JSON.parse(Deno.env.get("API_TOKEN_SIGNING_KEY") ?? "null") as (JsonWebKey & { kid?: string }) | null;
    if (!jwk?.d) throw new Error("API_TOKEN_SIGNING_KEY is not set (a private ES256 JWK)");
    const { kid, ...rest } = jwk;
    const imported = await crypto.subtle.importKey(
      "jwk",
      { ...rest, key_ops: ["sign"] },
      { name: "ECDSA", namedCurve: "P-256" },
      false,
      ["sign"],
    );
    return { key: imported, kid };
  })();
  return signingKey;
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const encode = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));

async function sign(claims: Record<string, unknown>): Promise<string> {
  const { key: k, kid } = await key();
  const head = `${encode({ alg: "ES256", typ: "JWT", ...(kid ? { kid } : {}) })}.${encode(claims)}`;
  const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, k, new TextEncoder().encode(head));
  return `${head}.${base64url(new Uint8Array(signature))}`;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function presented(req: Request): Promise<string | null> {
  const header = /^Bearer\s+(tb_\S+)$/i.exec(req.headers.get("Authorization") ?? "")?.[1];
  if (header) return header;
  if (!(req.headers.get("Content-Type") ?? "").includes("application/json")) return null;
  const body = (await req.json().catch(() => null)) as { token?: unknown } | null;
  return typeof body?.token === "string" && body.token.startsWith("tb_") ? body.token : null;
}

Deno.serve(async (req) => {
  if (req.method === "OPTIONS") return new Response(null, { status: 204, headers: corsHeaders });
  if (req.method !== "POST") return refuse(405, "method_not_allowed", "POST the token.", { Allow: "POST, OPTIONS" });
  const token = await presented(req);
  if (!token || token.length > 200) return refuse(401, "invalid_token", "Send a personal API token (tb_…).");
  const url = Deno.env.get("SUPABASE_URL")!;
  const service = Deno.env.get("SUPABASE_SERVICE_ROLE_KEY")!;
  const res = await fetch(`${url}/rest/v1/rpc/api_token_exchange`, {
    method: "POST",
    headers: { apikey: service, Authorization: `Bearer ${service}`, "Content-Type": "application/json" },
    body: JSON.stringify({ token_hash: await sha256Hex(token) }),
  });
  if (!res.ok) return refuse(503, "unavailable", "The backend didn't answer; try again.");
  const found = (await res.json()) as Exchange | null;
  if (!found) return refuse(401, "invalid_token", "This API token was revoked or has expired.");
  const now = Math.floor(Date.now() / 1000);
  const exp = now + LIFETIME_SECONDS;
  const accessToken = await sign({
    iss: `${url}/auth/v1`,
    aud: "authenticated",
    sub: found.user_id,
    role: "authenticated",
    email: found.email ?? "",
    aal: found.aal,
    amr: [{ method: "api_token", timestamp: now }],
    app_metadata: found.app_metadata,
    user_metadata: {},
    is_anonymous: false,
    // no Auth session has this id: Auth's own endpoints (/auth/v1/user…) refuse the token
    session_id: found.token_id,
    tb_token: found.token_id,
    ...(found.team_id ? { tb_team: found.team_id } : {}),
    tb_mode: found.mode,
    iat: now,
    exp,
  });
  return json({
    access_token: accessToken,
    token_type: "bearer",
    expires_in: LIFETIME_SECONDS,
    expires_at: exp,
    // whose it is (scripts filter "my tasks" by it), and how far it reaches
    user_id: found.user_id,
    team_id: found.team_id,
    mode: found.mode,
  });
});
