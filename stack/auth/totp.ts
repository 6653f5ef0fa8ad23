import crypto from "node:crypto";

/**
 * Time-based one-time passwords (RFC 6238) as GoTrue uses them: SHA-1, six
 * digits, 30-second steps, one step of skew either way; 20-byte secrets in
 * unpadded base32.
 */
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
export const TOTP_PERIOD = 30;
const DIGITS = 6;
const SKEW = 1;

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/=+$/, "");
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const i = BASE32.indexOf(ch);
    if (i < 0) throw new Error("invalid base32");
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export function newTotpSecret(): string {
  return base32Encode(crypto.randomBytes(20));
}

/** The code for a secret at a time (ms since the epoch). */
export function totpCode(secret: string, at = Date.now()): string {
  const counter = Math.floor(at / 1000 / TOTP_PERIOD);
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = crypto.createHmac("sha1", base32Decode(secret)).update(msg).digest();
  const offset = mac[mac.length - 1] & 0xf;
  const n = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** DIGITS;
  return String(n).padStart(DIGITS, "0");
}

/**
 * The time step whose code `code` is (now or one step either side), or null
 * when it is none of them. The step, not just "valid", so that a factor can
 * take each code once (UsedSteps).
 */
export function totpStep(secret: string, code: string, at = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = Math.floor(at / 1000 / TOTP_PERIOD);
  let matched: number | null = null;
  for (let step = now - SKEW; step <= now + SKEW; step++) {
    const expected = totpCode(secret, step * TOTP_PERIOD * 1000);
    if (crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(code))) matched ??= step;
  }
  return matched;
}

/**
 * The last step each factor took a code for, so that a code works once (RFC
 * 6238 §5.2): a factor takes a code only for a later step than its last, so
 * neither the code just used nor an older one still inside the skew window
 * works again. Hosted GoTrue keeps no such record (docs/decisions/0013). In
 * memory, as the other attempt counters: a step older than the window needs
 * no remembering, and a restart forgets at most 90 seconds of codes.
 */
export class UsedSteps {
  private readonly last = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Records `step` as used by `factorId`; false when it, or a later step, was used already. */
  claim(factorId: string, step: number): boolean {
    const previous = this.last.get(factorId);
    if (previous !== undefined && step <= previous) return false;
    this.last.set(factorId, step);
    if (this.last.size > 10_000) this.prune();
    return true;
  }

  private prune() {
    const oldestValid = Math.floor(this.now() / 1000 / TOTP_PERIOD) - SKEW;
    for (const [factorId, step] of this.last) if (step < oldestValid) this.last.delete(factorId);
  }
}

/** The otpauth:// URI authenticator apps read (as pquerna/otp writes it). */
export function totpUri(secret: string, issuer: string, account: string): string {
  const params = new URLSearchParams({
    algorithm: "SHA1",
    digits: String(DIGITS),
    issuer,
    period: String(TOTP_PERIOD),
    secret,
  });
  return `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(account)}?${params.toString()}`;
}
