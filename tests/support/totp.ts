import crypto from "node:crypto";

/**
 * RFC 6238 time-based one-time passwords, as an authenticator app computes
 * them (HMAC-SHA-1, 30-second steps, 6 digits by default), for tests that
 * sign in with two factors. Written from the RFC rather than imported from the
 * stack, so a mistake in the stack's own TOTP can't hide behind the same code.
 */
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32Bytes(secret: string): Buffer {
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of secret.toUpperCase().replace(/[\s=]/g, "")) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The code for a key (raw bytes) at a time (ms since the epoch). */
export function hotpAt(key: Buffer, at: number, digits = 6, step = 30): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / step)));
  const mac = crypto.createHmac("sha1", key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(value).padStart(digits, "0");
}

/** What an authenticator app shows now for a base32 secret (the text under a QR code). */
export function totp(secret: string, at = Date.now()): string {
  return hotpAt(base32Bytes(secret), at);
}

/** A 6-digit code that is certainly wrong for this secret now (and in the steps either side). */
export function wrongTotp(secret: string, at = Date.now()): string {
  const near = new Set([-30_000, 0, 30_000].map((d) => totp(secret, at + d)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!near.has(candidate)) return candidate;
  }
}

/**
 * The code the app shows next (in at most 30 seconds). A factor takes each
 * code once, so a test that has just used `totp(secret)` (to enrol, say) signs
 * in again with this one, as a person waits for the next code; the backend
 * takes it at once, within its one step of clock skew.
 */
export function nextTotp(secret: string, at = Date.now()): string {
  return totp(secret, at + 30_000);
}
