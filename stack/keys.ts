import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as jose from "jose";

/**
 * The stack's signing key: one ES256 key pair with a key id, made on first
 * start and kept in the data folder. Access tokens, the anon key and the
 * service role key are all signed with it; its public half is served as the
 * JWKS, so clients verify tokens locally (supabase.auth.getClaims()).
 */
export interface StoredKey {
  kid: string;
  privateJwk: jose.JWK;
  publicJwk: jose.JWK;
  anonKey: string;
  serviceRoleKey: string;
  /**
   * A second ES256 key that verifies but never signs for Auth: what a hosted
   * project's imported *standby* key is. Its private half is given to the
   * Edge Functions as API_TOKEN_SIGNING_KEY, as a deployer would with
   * `supabase secrets set` (the api-token function signs short-lived access
   * tokens with it; docs/decisions/0036-api-tokens-and-webhooks.md).
   * Added to a data folder made before it existed on the next start.
   */
  standbyPrivateJwk?: jose.JWK;
}

export interface Keys extends StoredKey {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwks: { keys: jose.JWK[] };
  sign(claims: jose.JWTPayload, options?: { expiresIn?: number }): Promise<string>;
  verify(token: string): Promise<jose.JWTPayload & Record<string, unknown>>;
}

const TEN_YEARS = 10 * 365 * 24 * 3600;

async function createStoredKey(): Promise<StoredKey> {
  const { privateKey, publicKey } = await jose.generateKeyPair("ES256", { extractable: true });
  const kid = crypto.randomUUID();
  const privateJwk = { ...(await jose.exportJWK(privateKey)), kid, alg: "ES256", use: "sig" };
  const publicJwk = { ...(await jose.exportJWK(publicKey)), kid, alg: "ES256", use: "sig", key_ops: ["verify"] };
  const now = Math.floor(Date.now() / 1000);
  const apiKey = (role: string) =>
    new jose.SignJWT({ iss: "supabase", ref: "local", role })
      .setProtectedHeader({ alg: "ES256", kid, typ: "JWT" })
      .setIssuedAt(now)
      .setExpirationTime(now + TEN_YEARS)
      .sign(privateKey);
  return {
    kid,
    privateJwk,
    publicJwk,
    anonKey: await apiKey("anon"),
    serviceRoleKey: await apiKey("service_role"),
    standbyPrivateJwk: await createStandbyJwk(),
  };
}

async function createStandbyJwk(): Promise<jose.JWK> {
  const { privateKey } = await jose.generateKeyPair("ES256", { extractable: true });
  return { ...(await jose.exportJWK(privateKey)), kid: crypto.randomUUID(), alg: "ES256", use: "sig" };
}

/**
 * Keys the project configured besides the stack's own: a JWKS-style list (as
 * GoTrue's GOTRUE_JWT_KEYS or the CLI's signing_keys_path file) and the legacy
 * HS256 secret (GOTRUE_JWT_SECRET). All of them verify tokens; the first
 * configured key whose key_ops include "sign" also signs them (else the
 * stack's ES256 key does). Their public halves join the JWKS; secrets never do.
 */
export interface ConfiguredKeys {
  jwtSecret?: string | null;
  jwtKeys?: jose.JWK[];
}

/** Loads the key from `<dataDir>/keys.json`, creating it there the first time. */
export async function loadOrCreateKeys(dataDir: string | null, configured: ConfiguredKeys = {}): Promise<Keys> {
  const file = dataDir ? path.join(dataDir, "keys.json") : null;
  let stored: StoredKey;
  if (file && fs.existsSync(file)) {
    stored = JSON.parse(fs.readFileSync(file, "utf8")) as StoredKey;
    if (!stored.standbyPrivateJwk) {
      stored.standbyPrivateJwk = await createStandbyJwk();
      fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    }
  } else {
    stored = await createStoredKey();
    if (file) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    }
  }
  return hydrate(stored, configured);
}

export function readStoredKeys(dataDir: string): StoredKey | null {
  const file = path.join(dataDir, "keys.json");
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as StoredKey) : null;
}

/**
 * Verified tokens are remembered (by their exact text) until they expire, so
 * a client sending the same access token on every request pays for one ES256
 * verification, not one per request. Bounded; oldest entries go first.
 */
const VERIFIED_CACHE_LIMIT = 2000;

interface VerifyKey {
  kid: string | null;
  alg: string;
  key: CryptoKey | Uint8Array;
}

function publicPart(jwk: jose.JWK): jose.JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, k: _k, ...pub } = jwk;
  return { ...pub, key_ops: ["verify"] };
}

async function configuredKeys(configured: ConfiguredKeys) {
  const verifiers: VerifyKey[] = [];
  const publicJwks: jose.JWK[] = [];
  let signer: { kid: string | undefined; alg: string; key: CryptoKey | Uint8Array } | null = null;
  for (const jwk of configured.jwtKeys ?? []) {
    const alg = jwk.alg ?? (jwk.kty === "oct" ? "HS256" : jwk.kty === "RSA" ? "RS256" : "ES256");
    const ops = jwk.key_ops ?? ["sign", "verify"];
    if (jwk.kty === "oct") {
      const secret = jose.base64url.decode(jwk.k ?? "");
      verifiers.push({ kid: jwk.kid ?? null, alg, key: secret });
      if (!signer && ops.includes("sign")) signer = { kid: jwk.kid, alg, key: secret };
      continue;
    }
    const pub = publicPart(jwk);
    verifiers.push({ kid: jwk.kid ?? null, alg, key: (await jose.importJWK(pub, alg)) as CryptoKey });
    publicJwks.push(pub);
    if (!signer && ops.includes("sign") && jwk.d) {
      const { key_ops: _ops, ...privateJwk } = jwk;
      signer = { kid: jwk.kid, alg, key: (await jose.importJWK(privateJwk, alg)) as CryptoKey };
    }
  }
  if (configured.jwtSecret)
    verifiers.push({ kid: null, alg: "HS256", key: new TextEncoder().encode(configured.jwtSecret) });
  return { verifiers, publicJwks, signer };
}

async function hydrate(stored: StoredKey, configured: ConfiguredKeys = {}): Promise<Keys> {
  const verified = new Map<string, jose.JWTPayload & Record<string, unknown>>();
  const privateKey = (await jose.importJWK(stored.privateJwk, "ES256")) as CryptoKey;
  const publicKey = (await jose.importJWK(stored.publicJwk, "ES256")) as CryptoKey;
  const extra = await configuredKeys(configured);
  if (stored.standbyPrivateJwk) {
    const pub = publicPart(stored.standbyPrivateJwk);
    extra.verifiers.push({
      kid: pub.kid ?? null,
      alg: "ES256",
      key: (await jose.importJWK(pub, "ES256")) as CryptoKey,
    });
    extra.publicJwks.push(pub);
  }
  const own: VerifyKey = { kid: stored.kid, alg: "ES256", key: publicKey };
  const signer = extra.signer ?? { kid: stored.kid, alg: "ES256", key: privateKey };
  /** The keys a token may be checked with: by its kid when one matches, else every key of its algorithm. */
  const candidates = (token: string): VerifyKey[] => {
    let header: jose.ProtectedHeaderParameters;
    try {
      header = jose.decodeProtectedHeader(token);
    } catch {
      return [own];
    }
    const all = [own, ...extra.verifiers].filter((k) => k.alg === header.alg);
    const byKid = header.kid ? all.filter((k) => k.kid === header.kid) : [];
    return byKid.length ? byKid : all.length ? all : [own];
  };
  return {
    ...stored,
    privateKey,
    publicKey,
    // the key Auth signs with first, then the others it accepts (standby, previous), as hosted lists them
    jwks: { keys: [stored.publicJwk, ...extra.publicJwks] },
    sign(claims, options) {
      const now = Math.floor(Date.now() / 1000);
      const jwt = new jose.SignJWT(claims).setProtectedHeader({
        alg: signer.alg,
        ...(signer.kid ? { kid: signer.kid } : {}),
        typ: "JWT",
      });
      if (claims.iat === undefined) jwt.setIssuedAt(now);
      if (options?.expiresIn !== undefined) jwt.setExpirationTime(now + options.expiresIn);
      return jwt.sign(signer.key);
    },
    async verify(token) {
      const cached = verified.get(token);
      if (cached && (cached.exp === undefined || cached.exp > Date.now() / 1000)) return structuredClone(cached);
      verified.delete(token);
      let payload: jose.JWTPayload | null = null;
      let lastError: unknown = null;
      for (const k of candidates(token)) {
        try {
          payload = (await jose.jwtVerify(token, k.key, { algorithms: [k.alg] })).payload;
          break;
        } catch (error) {
          lastError = error;
          const code = (error as { code?: string }).code;
          if (code !== "ERR_JWS_SIGNATURE_VERIFICATION_FAILED") throw error;
        }
      }
      if (!payload) throw lastError;
      if (verified.size >= VERIFIED_CACHE_LIMIT) verified.delete(verified.keys().next().value!);
      verified.set(token, payload as jose.JWTPayload & Record<string, unknown>);
      return structuredClone(payload) as jose.JWTPayload & Record<string, unknown>;
    },
  };
}
