import { test as base, expect, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { createServerClient, parseCookieHeader } from "@supabase/ssr";
import { createClient } from "@supabase/supabase-js";
import crypto from "node:crypto";
import fs from "node:fs";
import WebSocket from "ws";
import { ENV_FILE, type EnvironmentName, type RunningEnvironment } from "./support/environments";

export { expect };

export interface TestUser {
  id: string;
  email: string;
  password: string;
  displayName: string;
}

export interface Mail {
  id: string;
  subject: string;
  text: string;
  html: string;
  /** the first link into the app (…/auth/confirm?token_hash=…) */
  link: string;
  /** the 6-digit code, when the email has one */
  code: string | null;
}

export interface Mailbox {
  address: string;
  /** waits for a message (newer than the last one read) whose subject matches */
  next(subject?: RegExp, timeoutMs?: number): Promise<Mail>;
}

export interface LoggedRequest {
  at: number;
  method: string;
  path: string;
  search: string;
  status: number;
}

function readEnvironments(): Record<EnvironmentName, RunningEnvironment> {
  return JSON.parse(fs.readFileSync(ENV_FILE, "utf8"));
}

/** A fresh address per call, so tests never share a user or hit the per-address email limit. */
export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${Date.now().toString(36)}-${crypto.randomBytes(3).toString("hex")}@example.com`;
}

export const PASSWORD = "correct-horse-1";

/** The tools each test gets, bound to one environment (the main one unless `environment` is set). */
export class Backend {
  constructor(readonly env: RunningEnvironment) {}

  admin() {
    return createClient(this.env.apiUrl, this.env.serviceRoleKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      // Node 20 has no global WebSocket
      realtime: { transport: WebSocket as never },
    });
  }

  /** A confirmed user made through the admin API. */
  async createUser(
    options: { email?: string; password?: string; displayName?: string; confirmed?: boolean } = {},
  ): Promise<TestUser> {
    const email = options.email ?? uniqueEmail();
    const password = options.password ?? PASSWORD;
    const displayName = options.displayName ?? `Tester ${email.slice(5, 11)}`;
    const { data, error } = await this.admin().auth.admin.createUser({
      email,
      password,
      email_confirm: options.confirmed ?? true,
      user_metadata: { display_name: displayName },
    });
    if (error || !data.user) throw error ?? new Error("no user");
    return { id: data.user.id, email, password, displayName };
  }

  /** Signs in as the app's server client would and returns the cookies it would set. */
  async sessionCookies(user: TestUser): Promise<Array<{ name: string; value: string }>> {
    const jar = new Map<string, string>();
    const client = createServerClient(this.env.apiUrl, this.env.anonKey, {
      realtime: { transport: WebSocket as never },
      cookies: {
        getAll: () => [...jar].map(([name, value]) => ({ name, value })),
        setAll: (cookies) => {
          for (const { name, value } of cookies) {
            if (value) jar.set(name, value);
            else jar.delete(name);
          }
        },
      },
    });
    const { error } = await client.auth.signInWithPassword({ email: user.email, password: user.password });
    if (error) throw error;
    return [...jar].map(([name, value]) => ({ name, value }));
  }

  mailbox(address: string): Mailbox {
    const inbox = this.env.inboxUrl;
    const seen = new Set<string>();
    return {
      address,
      async next(subject, timeoutMs = 15_000) {
        let found: Mail | null = null;
        await expect
          .poll(
            async () => {
              const res = await fetch(`${inbox}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`);
              const { messages } = (await res.json()) as { messages: Array<{ ID: string; Subject: string }> };
              const fresh = messages.find((m) => !seen.has(m.ID) && (!subject || subject.test(m.Subject)));
              if (!fresh) return false;
              const full = (await (await fetch(`${inbox}/api/v1/message/${fresh.ID}`)).json()) as {
                Subject: string;
                Text: string;
                HTML: string;
              };
              const link = /href="([^"]*\/auth\/confirm[^"]*)"/.exec(full.HTML)?.[1]?.replace(/&amp;/g, "&") ?? "";
              found = {
                id: fresh.ID,
                subject: full.Subject,
                text: full.Text,
                html: full.HTML,
                link,
                code: /\b(\d{6})\b/.exec(full.Text)?.[1] ?? null,
              };
              return true;
            },
            { timeout: timeoutMs, message: `an email to ${address}${subject ? ` matching ${subject}` : ""}` },
          )
          .toBe(true);
        const mail = found as unknown as Mail;
        // Mark everything up to this one as read, so next() waits for a newer message.
        seen.add(mail.id);
        const res = await fetch(`${inbox}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`);
        for (const m of ((await res.json()) as { messages: Array<{ ID: string }> }).messages) seen.add(m.ID);
        return mail;
      },
    };
  }

  /** The requests the stack served (GET /_stack/requests, service role only). */
  async requests(since = 0): Promise<LoggedRequest[]> {
    const res = await fetch(`${this.env.apiUrl}/_stack/requests?since=${since}`, {
      headers: { apikey: this.env.serviceRoleKey, authorization: `Bearer ${this.env.serviceRoleKey}` },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as LoggedRequest[];
  }
}

/** The decoded session cookie of a browser context (chunks joined). */
export async function sessionFromCookies(context: BrowserContext, url: string) {
  const cookies = (await context.cookies(url)).filter((c) => /^sb-.+-auth-token(\.\d+)?$/.test(c.name));
  if (cookies.length === 0) return null;
  cookies.sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
  const raw = cookies.map((c) => c.value).join("");
  const json = raw.startsWith("base64-")
    ? Buffer.from(raw.slice(7), "base64url").toString("utf8")
    : decodeURIComponent(raw);
  return JSON.parse(json) as { access_token: string; refresh_token: string; expires_at: number };
}

type Fixtures = {
  environment: EnvironmentName;
  backend: Backend;
  signUp: (options?: {
    email?: string;
    password?: string;
    displayName?: string;
    confirmed?: boolean;
  }) => Promise<TestUser>;
  login: (user: TestUser, context?: BrowserContext) => Promise<void>;
  mailbox: (address: string) => Mailbox;
  /** a page in a fresh browser context with JavaScript turned off */
  withoutJavaScript: Page;
};

export const test = base.extend<Fixtures>({
  environment: ["main", { option: true }],
  backend: async ({ environment }, use) => {
    await use(new Backend(readEnvironments()[environment]));
  },
  baseURL: async ({ backend }, use) => {
    await use(backend.env.appUrl);
  },
  signUp: async ({ backend }, use) => {
    await use((options) => backend.createUser(options));
  },
  login: async ({ backend, context }, use) => {
    await use(async (user, target = context) => {
      const cookies = await backend.sessionCookies(user);
      await target.addCookies(
        cookies.map(({ name, value }) => ({
          name,
          value,
          url: backend.env.appUrl,
          sameSite: "Lax" as const,
          expires: Math.floor(Date.now() / 1000) + 34_560_000,
        })),
      );
    });
  },
  mailbox: async ({ backend }, use) => {
    await use((address) => backend.mailbox(address));
  },
  withoutJavaScript: async ({ browser, backend }, use) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL: backend.env.appUrl });
    await use(await context.newPage());
    await context.close();
  },
});

/**
 * Both ways a person may use a form: with JavaScript (Remix submits without a
 * reload), and as plain HTML form posts. Use inside a describe:
 * `test.use({ javaScriptEnabled: mode.js })`.
 */
/**
 * New team labels put on a task in its form (issue 42 §5): with JavaScript
 * the picker's search and Enter (its "Create"), without it "New labels".
 */
export async function createLabels(form: Locator, names: string[], js: boolean) {
  if (!js) return form.getByLabel("New labels", { exact: true }).fill(names.join(", "));
  const search = form.getByLabel("Find a label", { exact: true });
  for (const name of names) {
    await search.fill(name);
    await search.press("Enter");
    await expect(form.getByRole("checkbox", { name, exact: true })).toBeChecked();
  }
}

export const MODES = [
  { name: "with JavaScript", js: true },
  { name: "without JavaScript", js: false },
] as const;

// re-exported for tests that parse Set-Cookie themselves
export { parseCookieHeader };
