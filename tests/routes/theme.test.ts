import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { afterCookies, call, createUser, signIn, startRouteStack, type RouteUser } from "./support.ts";

/**
 * The theme (docs/product.md §13): the root loader draws the page from the
 * `tb_theme` cookie, else the account's choice in the token's claims (and
 * then keeps it in a cookie), else "as the system"; /account saves it.
 */
let stack: TestStack;
let user: RouteUser;
let root: typeof import("~/root");
let account: typeof import("~/routes/account");

beforeAll(async () => {
  stack = await startRouteStack();
  user = await createUser(stack, "Theo Theme");
  root = await import("~/root");
  account = await import("~/routes/account");
});
afterAll(() => stack?.close());

const themeOf = (data: unknown) => (data as { theme: string }).theme;
const themeCookie = (setCookies: string[]) => setCookies.find((line) => line.startsWith("tb_theme="));
const rootLoader = (who: RouteUser | null, cookie = "") =>
  call(root.loader, {
    url: "/",
    user: who && { ...who, cookie: [who.cookie, cookie].filter(Boolean).join("; ") },
    params: {},
  });

describe("the page's theme", () => {
  it("is the cookie's, signed in or not; without one, as the system, and no cookie is written", async () => {
    expect(themeOf((await call(root.loader, { url: "/", user: null, params: {} })).data)).toBe("system");
    const signedOut = { ...user, cookie: "tb_theme=dark" };
    expect(themeOf((await call(root.loader, { url: "/login", user: signedOut, params: {} })).data)).toBe("dark");
    const plain = await rootLoader(user);
    expect(themeOf(plain.data)).toBe("system");
    expect(themeCookie(plain.setCookies)).toBeUndefined();
    expect(themeOf((await rootLoader(user, "tb_theme=light")).data)).toBe("light");
    // anything else in the cookie is as the system
    expect(themeOf((await rootLoader(user, "tb_theme=purple")).data)).toBe("system");
  });

  it("/account saves it in the profile, the user's metadata and this browser's cookie (400 days)", async () => {
    const saved = await call(account.action, {
      url: "/account",
      user,
      params: {},
      form: { intent: "theme", theme: "dark" },
    });
    expect(saved.status).toBe(302);
    expect(saved.location).toBe("/account");
    expect(themeCookie(saved.setCookies)).toMatch(/^tb_theme=dark; Max-Age=34560000; Path=\/; HttpOnly; SameSite=Lax$/);
    const { rows } = await stack.db.query<{ theme: string; meta: string }>(
      `select p.theme, u.raw_user_meta_data ->> 'theme' as meta from public.profiles p join auth.users u on u.id = p.id where p.id = $1`,
      [user.id],
    );
    expect(rows).toEqual([{ theme: "dark", meta: "dark" }]);
    const after = afterCookies(user, saved);
    expect(themeOf((await rootLoader(after)).data)).toBe("dark");
  });

  it("a browser without the cookie takes the account's choice from the token it signs in with, and keeps it", async () => {
    const elsewhere = await signIn(user); // a new session: its token carries the metadata saved above
    const first = await rootLoader(elsewhere);
    expect(themeOf(first.data)).toBe("dark");
    expect(themeCookie(first.setCookies)).toMatch(/^tb_theme=dark;/);
    // the cookie, once there, is this browser's: it wins over the account's
    expect(themeOf((await rootLoader(elsewhere, "tb_theme=light")).data)).toBe("light");
  });

  it("refuses a theme that isn't one, keeping the page as it was", async () => {
    const other = await createUser(stack, "Una Known");
    const refused = await call(account.action, {
      url: "/account",
      user: other,
      params: {},
      form: { intent: "theme", theme: "sepia" },
    });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({
      intent: "theme",
      errors: { theme: "Choose light, dark or as the system." },
      values: { theme: "sepia" },
    });
    expect(themeCookie(refused.setCookies)).toBeUndefined();
    const { rows } = await stack.db.query(`select theme from public.profiles where id = $1`, [other.id]);
    expect(rows).toEqual([{ theme: "system" }]);
  });
});
