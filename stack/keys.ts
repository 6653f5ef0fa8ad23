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
  return { kid, privateJwk, publicJwk, anonKey: await apiKey("anon"), serviceRoleKey: await apiKey("service_role") };
}

/** Loads the key from `<dataDir>/keys.json`, creating it there the first time. */
export async function loadOrCreateKeys(dataDir: string | null): Promise<Keys> {
  const file = dataDir ? path.join(dataDir, "keys.json") : null;
  let stored: StoredKey;
  if (file && fs.existsSync(file)) {
    stored = JSON.parse(fs.readFileSync(file, "utf8")) as StoredKey;
  } else {
    stored = await createStoredKey();
    if (file) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    }
  }
  return hydrate(stored);
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

async function hydrate(stored: StoredKey): Promise<Keys> {
  const verified = new Map<string, jose.JWTPayload & Record<string, unknown>>();
  const privateKey = (await jose.importJWK(stored.privateJwk, "ES256")) as CryptoKey;
  const publicKey = (await jose.importJWK(stored.publicJwk, "ES256")) as CryptoKey;
  return {
    ...stored,
    privateKey,
    publicKey,
    jwks: { keys: [stored.publicJwk] },
    sign(claims, options) {
      const now = Math.floor(Date.now() / 1000);
      const jwt = new jose.SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: stored.kid, typ: "JWT" });
      if (claims.iat === undefined) jwt.setIssuedAt(now);
      if (options?.expiresIn !== undefined) jwt.setExpirationTime(now + options.expiresIn);
      return jwt.sign(privateKey);
    },
    async verify(token) {
      const cached = verified.get(token);
      if (cached && (cached.exp === undefined || cached.exp > Date.now() / 1000)) return structuredClone(cached);
      verified.delete(token);
      const { payload } = await jose.jwtVerify(token, publicKey, { algorithms: ["ES256"] });
      if (verified.size >= VERIFIED_CACHE_LIMIT) verified.delete(verified.keys().next().value!);
      verified.set(token, payload as jose.JWTPayload & Record<string, unknown>);
      return structuredClone(payload) as jose.JWTPayload & Record<string, unknown>;
    },
  };
}
