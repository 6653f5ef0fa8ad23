/**
 * Stand-ins, in the BROWSER BUILD ONLY, for two modules of @supabase/auth-js
 * that Teamboard's browser never runs (vite.config.ts, `leaveOutUnusedAuthJs`):
 * passkeys (`lib/webauthn.js`) and Sign in with Ethereum
 * (`lib/web3/ethereum.js`). GoTrueClient imports them for `mfa.webauthn` and
 * `signInWithWeb3`; the browser only refreshes tokens, detects the session in
 * the address, reports auth events and signs out (browser-auth.ts), and every
 * sign-in and two-factor step (TOTP) is a form post handled on the server,
 * whose auth-js is untouched. Leaving them out saves ~2.9 KiB (Brotli) on every
 * page (docs/decisions/0021-browser-weight.md). Calling either
 * feature in the browser fails with the message below instead of doing
 * something half-way. The names are exactly what GoTrueClient 2.109 imports:
 * if a new auth-js imports another, the build stops with "not exported".
 */
const LEFT_OUT = "is left out of Teamboard's browser build (vite.config.ts, leaveOutUnusedAuthJs)";

function unavailable(feature: string): never {
  throw new Error(`${feature} ${LEFT_OUT}`);
}

// lib/webauthn.js
const passkeys = () => unavailable("Passkey (WebAuthn) sign-in");

export class WebAuthnApi {
  enroll = passkeys;
  challenge = passkeys;
  verify = passkeys;
  authenticate = passkeys;
  register = passkeys;
}
/** GoTrueClient asks this before any passkey ceremony, and answers "not supported" with an AuthError. */
export const browserSupportsWebAuthn = () => false;
export const webAuthnAbortService = { createNewAbortSignal: passkeys, cancelCeremony: () => {} };
export const createCredential = passkeys;
export const getCredential = passkeys;
export const deserializeCredentialCreationOptions = passkeys;
export const deserializeCredentialRequestOptions = passkeys;
export const serializeCredentialCreationResponse = passkeys;
export const serializeCredentialRequestResponse = passkeys;

// lib/web3/ethereum.js
const ethereum = () => unavailable("Sign in with Ethereum");
export const createSiweMessage = ethereum;
export const fromHex = ethereum;
export const getAddress = ethereum;
export const toHex = ethereum;
