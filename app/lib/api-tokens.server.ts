import crypto from "node:crypto";

/**
 * Personal API tokens (/account/tokens; docs/decisions/0036-api-tokens-and-webhooks.md):
 * `tb_` and 32 random bytes (base64url). The database keeps the SHA-256 (hex)
 * and the first characters, never the token.
 */
export function newApiToken(): { token: string; hash: string; prefix: string } {
  const token = `tb_${crypto.randomBytes(32).toString("base64url")}`;
  return { token, hash: hashApiToken(token), prefix: token.slice(0, 7) };
}

export function hashApiToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}
