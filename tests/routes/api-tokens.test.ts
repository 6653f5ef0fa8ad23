import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { totp } from "../support/totp.ts";
import { call, createUser, startRouteStack } from "./support.ts";
import { enrolThroughPage } from "./two-factor-support.ts";

/**
 * /account/tokens (docs/product.md §19): a token needs the password again (and the
 * app's code when the account has one), is shown once and kept as a hash,
 * and can be revoked; /account/security's log lists what happened.
 */
let stack: TestStack;
let tokens: typeof import("~/routes/account.tokens");
let security: typeof import("~/routes/account.security");

beforeAll(async () => {
  stack = await startRouteStack();
  tokens = await import("~/routes/account.tokens");
  security = await import("~/routes/account.security");
});
afterAll(() => stack?.close());

const form = (extra: Record<string, string>) => ({
  intent: "create",
  name: "n8n",
  teamId: "",
  mode: "read",
  days: "30",
  ...extra,
});

describe("making a token", () => {
  it("asks for the password again, keeping what was typed", async () => {
    const person = await createUser(stack, "Pat Token");
    const answer = await call(tokens.action, {
      url: "/account/tokens",
      user: person,
      params: {},
      form: form({ password: "not-my-password-1" }),
    });
    expect(answer.status).toBe(400);
    expect(answer.data).toMatchObject({
      errors: { password: "That password isn't right." },
      values: { name: "n8n", mode: "read", days: "30" },
    });
    expect((answer.data as { values: Record<string, string> }).values.password).toBeUndefined();
    const { rows } = await stack.db.query("select 1 from api_tokens where user_id = $1", [person.id]);
    expect(rows).toEqual([]);
  });

  it("shows it once, keeps only its hash, lists it, revokes it, and logs both", async () => {
    const person = await createUser(stack, "Ray Revoke");
    const made = await call(tokens.action, {
      url: "/account/tokens",
      user: person,
      params: {},
      form: form({ password: person.password, mode: "write", days: "365" }),
    });
    expect(made.status).toBe(200);
    const { token } = made.data as { token: string };
    expect(token).toMatch(/^tb_[A-Za-z0-9_-]{43}$/);
    const { rows } = await stack.db.query<{ id: string; token_hash: string; mode: string; days: number }>(
      "select id, token_hash, mode, round(extract(epoch from expires_at - created_at) / 86400)::int as days from api_tokens where user_id = $1",
      [person.id],
    );
    expect(rows).toMatchObject([
      { token_hash: crypto.createHash("sha256").update(token).digest("hex"), mode: "write", days: 365 },
    ]);
    const page = await call(tokens.loader, { url: "/account/tokens", user: person, params: {} });
    expect(JSON.stringify(page.data)).not.toContain(token);
    expect(page.data).toMatchObject({ tokens: [{ name: "n8n", mode: "write", revoked_at: null, last_used_at: null }] });

    const revoked = await call(tokens.action, {
      url: "/account/tokens",
      user: person,
      params: {},
      form: { intent: "revoke", tokenId: rows[0].id },
    });
    expect(revoked.location).toBe("/account/tokens");
    const after = await call(tokens.loader, { url: "/account/tokens", user: person, params: {} });
    expect((after.data as { tokens: { revoked_at: string | null }[] }).tokens[0].revoked_at).not.toBeNull();

    const log = await call(security.loader, { url: "/account/security", user: person, params: {} });
    expect((log.data as { log: { kind: string }[] }).log.map((e) => e.kind)).toEqual([
      "api_token_revoked",
      "api_token_created",
    ]);
  });

  it("refuses a lifetime over a year and a team that isn't mine", async () => {
    const person = await createUser(stack, "Lee Limits");
    const long = await call(tokens.action, {
      url: "/account/tokens",
      user: person,
      params: {},
      form: form({ password: person.password, days: "400" }),
    });
    expect(long.status).toBe(400);
    expect(long.data).toMatchObject({ errors: { days: "A token lasts at most a year." } });
    const foreign = await call(tokens.action, {
      url: "/account/tokens",
      user: person,
      params: {},
      form: form({ password: person.password, teamId: crypto.randomUUID() }),
    });
    expect(foreign.status).toBe(404);
  });

  it("with an authenticator app: asks for its code too, and the token gets the second factor's level", async () => {
    const first = await createUser(stack, "Tess Two");
    const { user, secret } = await enrolThroughPage(security, first);
    const noCode = await call(tokens.action, {
      url: "/account/tokens",
      user,
      params: {},
      form: form({ password: user.password }),
    });
    expect(noCode.status).toBe(400);
    expect(noCode.data).toMatchObject({ errors: { code: "Enter the 6-digit code from your app." } });
    // the enrolment used this step's code: the next step's is fresh
    const made = await call(tokens.action, {
      url: "/account/tokens",
      user,
      params: {},
      form: form({ password: user.password, code: totp(secret, Date.now() + 30_000) }),
    });
    expect(made.status).toBe(200);
    const { rows } = await stack.db.query("select aal from api_tokens where user_id = $1", [user.id]);
    expect(rows).toEqual([{ aal: "aal2" }]);
  });
});
