import crypto from "node:crypto";

/**
 * The relying party's half of WebAuthn (Level 2), as far as passkeys need
 * it: CBOR, authenticator data, COSE public keys, attestation formats
 * "none" and "packed", and assertion signatures. Anything that fails
 * throws a WebAuthnError; the caller answers it as GoTrue does
 * (webauthn_verification_failed).
 */
export class WebAuthnError extends Error {
  /** true when the response could not be parsed at all (GoTrue: "Invalid credential response") */
  constructor(
    message: string,
    readonly malformed = false,
  ) {
    super(message);
  }
}

const fail = (message: string): never => {
  throw new WebAuthnError(message);
};
const malformed = (message: string): never => {
  throw new WebAuthnError(message, true);
};

// ---- CBOR (RFC 8949), the subset authenticators emit ------------------------
export type Cbor = number | bigint | string | boolean | null | undefined | Buffer | Cbor[] | Map<Cbor, Cbor>;

/** Decodes one CBOR item at `offset`; returns it and the offset after it. */
export function decodeCbor(buf: Buffer, offset = 0, depth = 0): { value: Cbor; end: number } {
  if (depth > 16) malformed("CBOR nested too deeply");
  if (offset >= buf.length) malformed("CBOR ended early");
  const head = buf[offset];
  const major = head >> 5;
  const info = head & 0x1f;
  let pos = offset + 1;
  const need = (n: number) => {
    if (pos + n > buf.length) malformed("CBOR ended early");
  };
  let arg: number | bigint;
  if (info < 24) arg = info;
  else if (info === 24) {
    need(1);
    arg = buf[pos];
    pos += 1;
  } else if (info === 25) {
    need(2);
    arg = buf.readUInt16BE(pos);
    pos += 2;
  } else if (info === 26) {
    need(4);
    arg = buf.readUInt32BE(pos);
    pos += 4;
  } else if (info === 27) {
    need(8);
    const big = buf.readBigUInt64BE(pos);
    arg = big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
    pos += 8;
  } else return malformed("indefinite-length CBOR is not supported");
  const len = () => {
    if (typeof arg !== "number") malformed("CBOR length too large");
    return arg as number;
  };
  switch (major) {
    case 0:
      return { value: arg, end: pos };
    case 1:
      return { value: typeof arg === "number" ? -1 - arg : -1n - arg, end: pos };
    case 2: {
      const n = len();
      need(n);
      return { value: Buffer.from(buf.subarray(pos, pos + n)), end: pos + n };
    }
    case 3: {
      const n = len();
      need(n);
      return { value: buf.subarray(pos, pos + n).toString("utf8"), end: pos + n };
    }
    case 4: {
      const items: Cbor[] = [];
      for (let i = 0, n = len(); i < n; i++) {
        const item = decodeCbor(buf, pos, depth + 1);
        items.push(item.value);
        pos = item.end;
      }
      return { value: items, end: pos };
    }
    case 5: {
      const map = new Map<Cbor, Cbor>();
      for (let i = 0, n = len(); i < n; i++) {
        const k = decodeCbor(buf, pos, depth + 1);
        const v = decodeCbor(buf, k.end, depth + 1);
        map.set(k.value, v.value);
        pos = v.end;
      }
      return { value: map, end: pos };
    }
    case 7:
      if (info === 20) return { value: false, end: pos };
      if (info === 21) return { value: true, end: pos };
      if (info === 22) return { value: null, end: pos };
      if (info === 23) return { value: undefined, end: pos };
      return malformed("unsupported CBOR simple value");
    default:
      return malformed("unsupported CBOR tag");
  }
}

// ---- authenticator data --------------------------------------------------------
export const FLAG_UP = 0x01;
export const FLAG_UV = 0x04;
export const FLAG_BE = 0x08;
export const FLAG_BS = 0x10;
export const FLAG_AT = 0x40;

export interface AuthenticatorData {
  rpIdHash: Buffer;
  flags: number;
  signCount: number;
  attested?: { aaguid: Buffer; credentialId: Buffer; publicKey: Buffer };
}

export function parseAuthenticatorData(data: Buffer): AuthenticatorData {
  if (data.length < 37) malformed("authenticator data too short");
  const out: AuthenticatorData = {
    rpIdHash: data.subarray(0, 32),
    flags: data[32],
    signCount: data.readUInt32BE(33),
  };
  if (out.flags & FLAG_AT) {
    if (data.length < 55) malformed("attested credential data too short");
    const aaguid = data.subarray(37, 53);
    const idLength = data.readUInt16BE(53);
    if (idLength > 1023) malformed("credential id too long");
    if (data.length < 55 + idLength) malformed("attested credential data too short");
    const credentialId = data.subarray(55, 55 + idLength);
    const key = decodeCbor(data, 55 + idLength);
    out.attested = { aaguid, credentialId, publicKey: data.subarray(55 + idLength, key.end) };
  }
  return out;
}

// ---- COSE keys (RFC 9053) --------------------------------------------------------
interface Algorithm {
  hash: string | null;
  rsaPss?: boolean;
}
/** COSE algorithm identifiers the stack verifies (go-webauthn's default set). */
const ALGORITHMS: Record<number, Algorithm> = {
  [-7]: { hash: "sha256" }, // ES256
  [-35]: { hash: "sha384" }, // ES384
  [-36]: { hash: "sha512" }, // ES512
  [-257]: { hash: "sha256" }, // RS256
  [-258]: { hash: "sha384" }, // RS384
  [-259]: { hash: "sha512" }, // RS512
  [-37]: { hash: "sha256", rsaPss: true }, // PS256
  [-38]: { hash: "sha384", rsaPss: true }, // PS384
  [-39]: { hash: "sha512", rsaPss: true }, // PS512
  [-8]: { hash: null }, // EdDSA
};
export const SUPPORTED_ALGORITHMS = [-7, -35, -36, -257, -258, -259, -37, -38, -39, -8];

const CURVES: Record<number, string> = { 1: "P-256", 2: "P-384", 3: "P-521", 6: "Ed25519" };

export interface CoseKey {
  alg: number;
  key: crypto.KeyObject;
}

export function parseCoseKey(bytes: Buffer): CoseKey {
  const { value } = decodeCbor(bytes);
  if (!(value instanceof Map)) return fail("COSE key is not a map");
  const kty = value.get(1);
  const alg = value.get(3);
  if (typeof alg !== "number" || !ALGORITHMS[alg]) return fail(`unsupported COSE algorithm ${String(alg)}`);
  const b64 = (label: number) => {
    const v = value.get(label);
    if (!Buffer.isBuffer(v)) fail(`COSE key parameter ${label} missing`);
    return (v as Buffer).toString("base64url");
  };
  let jwk: crypto.JsonWebKey;
  if (kty === 2) {
    const crv = CURVES[value.get(-1) as number];
    if (!crv || crv === "Ed25519") return fail("unsupported EC2 curve");
    jwk = { kty: "EC", crv, x: b64(-2), y: b64(-3) };
  } else if (kty === 3) {
    jwk = { kty: "RSA", n: b64(-1), e: b64(-2) };
  } else if (kty === 1) {
    if (CURVES[value.get(-1) as number] !== "Ed25519") return fail("unsupported OKP curve");
    jwk = { kty: "OKP", crv: "Ed25519", x: b64(-2) };
  } else return fail("unsupported COSE key type");
  try {
    return { alg, key: crypto.createPublicKey({ key: jwk, format: "jwk" }) };
  } catch {
    return fail("invalid COSE public key");
  }
}

export function verifySignature(alg: number, key: crypto.KeyObject, data: Buffer, signature: Buffer): boolean {
  const a = ALGORITHMS[alg];
  if (!a) return false;
  try {
    if (a.rsaPss) {
      return crypto.verify(
        a.hash,
        data,
        { key, padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: crypto.constants.RSA_PSS_SALTLEN_DIGEST },
        signature,
      );
    }
    return crypto.verify(a.hash, data, key, signature);
  } catch {
    return false;
  }
}

// ---- client data and the ceremonies' checks --------------------------------------
export interface RelyingParty {
  id: string;
  origins: string[];
}

export interface ClientData {
  type: string;
  challenge: string;
  origin: string;
}

export function parseClientData(raw: Buffer): ClientData {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString("utf8"));
  } catch {
    return malformed("clientDataJSON is not JSON");
  }
  const v = value as Partial<ClientData>;
  if (typeof v?.type !== "string" || typeof v.challenge !== "string" || typeof v.origin !== "string")
    malformed("clientDataJSON lacks type, challenge or origin");
  return v as ClientData;
}

function checkClientData(cd: ClientData, type: string, challenge: string, rp: RelyingParty) {
  if (cd.type !== type) fail(`client data type is ${cd.type}, expected ${type}`);
  if (!timingSafeEqualText(cd.challenge, challenge)) fail("challenge mismatch");
  if (!rp.origins.includes(cd.origin)) fail(`origin ${cd.origin} is not allowed`);
}

function checkAuthData(ad: AuthenticatorData, rp: RelyingParty, requireUv: boolean) {
  const expected = crypto.createHash("sha256").update(rp.id).digest();
  if (!crypto.timingSafeEqual(ad.rpIdHash, expected)) fail("RP ID hash mismatch");
  if (!(ad.flags & FLAG_UP)) fail("user not present");
  if (requireUv && !(ad.flags & FLAG_UV)) fail("user not verified");
}

function timingSafeEqualText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** base64url as WebAuthn JSON carries it (padding tolerated). */
export function fromBase64Url(v: unknown, name: string): Buffer {
  if (typeof v !== "string" || !/^[A-Za-z0-9_-]*={0,2}$/.test(v)) return malformed(`${name} is not base64url`);
  return Buffer.from(v.replace(/=+$/, ""), "base64url");
}

export interface NewCredential {
  credentialId: Buffer;
  publicKey: Buffer;
  aaguid: Buffer;
  signCount: number;
  attestationType: string;
  transports: string[];
  backupEligible: boolean;
  backedUp: boolean;
}

/** A registration response (navigator.credentials.create() as JSON), checked against the challenge. */
export function verifyRegistration(credential: unknown, challenge: string, rp: RelyingParty): NewCredential {
  const cred = credential as {
    id?: unknown;
    rawId?: unknown;
    type?: unknown;
    response?: { clientDataJSON?: unknown; attestationObject?: unknown; transports?: unknown };
  } | null;
  if (!cred || typeof cred !== "object" || cred.type !== "public-key" || !cred.response)
    malformed("not a public-key credential");
  const rawId = fromBase64Url(cred!.rawId ?? cred!.id, "rawId");
  const clientDataRaw = fromBase64Url(cred!.response!.clientDataJSON, "clientDataJSON");
  checkClientData(parseClientData(clientDataRaw), "webauthn.create", challenge, rp);
  const { value: att } = decodeCbor(fromBase64Url(cred!.response!.attestationObject, "attestationObject"));
  if (!(att instanceof Map)) return malformed("attestation object is not a map");
  const fmt = att.get("fmt");
  const attStmt = att.get("attStmt");
  const authDataRaw = att.get("authData");
  if (typeof fmt !== "string" || !(attStmt instanceof Map) || !Buffer.isBuffer(authDataRaw))
    return malformed("malformed attestation object");
  const authData = parseAuthenticatorData(authDataRaw);
  checkAuthData(authData, rp, false);
  if (!authData.attested) return fail("no attested credential data");
  if (!authData.attested.credentialId.equals(rawId)) fail("credential id mismatch");
  const key = parseCoseKey(authData.attested.publicKey);
  const clientDataHash = crypto.createHash("sha256").update(clientDataRaw).digest();
  let attestationType = "none";
  if (fmt === "none") {
    if (attStmt.size !== 0) fail("attestation statement of format none is not empty");
  } else if (fmt === "packed") {
    const alg = attStmt.get("alg");
    const sig = attStmt.get("sig");
    if (typeof alg !== "number" || !Buffer.isBuffer(sig)) return fail("malformed packed attestation");
    const signed = Buffer.concat([authDataRaw, clientDataHash]);
    const x5c = attStmt.get("x5c");
    if (Array.isArray(x5c) && Buffer.isBuffer(x5c[0])) {
      // full attestation: signed by the leaf certificate (its chain is not checked, as without metadata)
      let leaf: crypto.KeyObject;
      try {
        leaf = new crypto.X509Certificate(x5c[0]).publicKey;
      } catch {
        return fail("invalid attestation certificate");
      }
      if (!verifySignature(alg, leaf, signed, sig)) fail("packed attestation signature invalid");
      attestationType = "basic";
    } else {
      if (alg !== key.alg) fail("packed self attestation algorithm mismatch");
      if (!verifySignature(alg, key.key, signed, sig)) fail("packed attestation signature invalid");
      attestationType = "self";
    }
  } else fail(`attestation format ${fmt} is not supported`);
  const transports = Array.isArray(cred!.response!.transports)
    ? (cred!.response!.transports as unknown[]).filter((t): t is string => typeof t === "string")
    : [];
  return {
    credentialId: authData.attested.credentialId,
    publicKey: authData.attested.publicKey,
    aaguid: authData.attested.aaguid,
    signCount: authData.signCount,
    attestationType,
    transports,
    backupEligible: !!(authData.flags & FLAG_BE),
    backedUp: !!(authData.flags & FLAG_BS),
  };
}

export interface Assertion {
  rawId: Buffer;
  userHandle: Buffer;
  clientDataRaw: Buffer;
  authDataRaw: Buffer;
  signature: Buffer;
}

/** The parts of an authentication response (navigator.credentials.get() as JSON). */
export function parseAssertion(credential: unknown): Assertion {
  const cred = credential as {
    id?: unknown;
    rawId?: unknown;
    type?: unknown;
    response?: { clientDataJSON?: unknown; authenticatorData?: unknown; signature?: unknown; userHandle?: unknown };
  } | null;
  if (!cred || typeof cred !== "object" || cred.type !== "public-key" || !cred.response)
    malformed("not a public-key credential");
  const r = cred!.response!;
  return {
    rawId: fromBase64Url(cred!.rawId ?? cred!.id, "rawId"),
    userHandle:
      r.userHandle == null || r.userHandle === "" ? Buffer.alloc(0) : fromBase64Url(r.userHandle, "userHandle"),
    clientDataRaw: fromBase64Url(r.clientDataJSON, "clientDataJSON"),
    authDataRaw: fromBase64Url(r.authenticatorData, "authenticatorData"),
    signature: fromBase64Url(r.signature, "signature"),
  };
}

/** Checks an assertion against the challenge and the stored public key; returns the new signature counter. */
export function verifyAssertion(a: Assertion, challenge: string, rp: RelyingParty, publicKey: Buffer): number {
  checkClientData(parseClientData(a.clientDataRaw), "webauthn.get", challenge, rp);
  const authData = parseAuthenticatorData(a.authDataRaw);
  checkAuthData(authData, rp, false);
  const key = parseCoseKey(publicKey);
  const clientDataHash = crypto.createHash("sha256").update(a.clientDataRaw).digest();
  if (!verifySignature(key.alg, key.key, Buffer.concat([a.authDataRaw, clientDataHash]), a.signature))
    fail("assertion signature invalid");
  return authData.signCount;
}
