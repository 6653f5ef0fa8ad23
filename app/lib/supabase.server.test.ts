import { beforeAll, describe, expect, it } from "vitest";

import { headersTarget, RequestScope, runInRequestScope } from "./request-scope.server";

type Module = typeof import("./supabase.server");
let createRequestClient: Module["createRequestClient"];
let requestClient: Module["requestClient"];

beforeAll(async () => {
  process.env.SUPABASE_URL ??= "http://127.0.0.1:54321";
  process.env.SUPABASE_ANON_KEY ??= "anon-key-for-unit-tests-0123456789";
  process.env.SESSION_SECRET ??= "unit-test-secret-0123456789";
  ({ createRequestClient, requestClient } = await import("./supabase.server"));
});

/** A backend that answers every password sign-in with a session for a user with `metadataBytes` of metadata. */
function fakeBackend(metadataBytes: number): typeof fetch {
  return async () => {
    const now = Math.floor(Date.now() / 1000);
    const body = {
      access_token: "header.payload.signature",
      token_type: "bearer",
      expires_in: 3600,
      expires_at: now + 3600,
      refresh_token: "refresh-token",
      user: {
        id: "00000000-0000-0000-0000-000000000001",
        aud: "authenticated",
        email: "ada@example.com",
        user_metadata: { bio: "x".repeat(metadataBytes) },
        app_metadata: {},
        created_at: new Date().toISOString(),
      },
    };
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  };
}

/** The headers a response of a request that signed in leaves with. */
async function signIn(metadataBytes: number) {
  const scope = new RequestScope();
  const supabase = createRequestClient(scope, {
    url: "http://backend.test",
    anonKey: "anon",
    fetch: fakeBackend(metadataBytes),
  });
  const { error } = await supabase.auth.signInWithPassword({ email: "ada@example.com", password: "secret12" });
  expect(error).toBeNull();
  const headers = new Headers();
  scope.writeInto(headersTarget(headers));
  return headers;
}

function parse(setCookie: string) {
  const [pair, ...attributes] = setCookie.split(/;\s*/);
  const name = pair.slice(0, pair.indexOf("="));
  const attrs = Object.fromEntries(
    attributes.map((a) => a.split("=") as [string, string?]).map(([k, v]) => [k.toLowerCase(), v ?? true]),
  );
  return { name, value: pair.slice(name.length + 1), attrs };
}

describe("the per-request client's cookies", () => {
  it("writes the session with @supabase/ssr's defaults: 400 days, SameSite=Lax, readable by the browser, whole site", async () => {
    const headers = await signIn(10);
    const cookies = headers.getSetCookie().map(parse);
    expect(cookies).toHaveLength(1);
    const [session] = cookies;
    expect(session.name).toBe("sb-backend-auth-token");
    expect(session.value.startsWith("base64-")).toBe(true);
    expect(session.attrs["max-age"]).toBe("34560000");
    expect(session.attrs.samesite).toBe("Lax");
    expect(session.attrs.path).toBe("/");
    expect(session.attrs).not.toHaveProperty("httponly");
  });

  it("sends the no-cache headers that must come with auth cookies", async () => {
    const headers = await signIn(10);
    expect(headers.get("Cache-Control")).toMatch(/no-store/);
  });

  it("splits a large session into numbered chunks, each under the browser's 4 KB limit", async () => {
    const headers = await signIn(8000);
    const cookies = headers.getSetCookie().map(parse);
    const names = cookies.map((c) => c.name);
    expect(names).toEqual(names.map((_, i) => `sb-backend-auth-token.${i}`));
    expect(cookies.length).toBeGreaterThanOrEqual(3);
    for (const cookie of cookies) {
      expect(cookie.name.length + cookie.value.length).toBeLessThan(4000);
      expect(cookie.attrs["max-age"]).toBe("34560000");
    }
  });

  it("reads a chunked session back from the Cookie header", async () => {
    const headers = await signIn(8000);
    const cookieHeader = headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const supabase = createRequestClient(new RequestScope({ cookie: cookieHeader }), {
      url: "http://backend.test",
      anonKey: "anon",
      fetch: fakeBackend(0),
    });
    const { data } = await supabase.auth.getSession();
    expect(data.session?.user.user_metadata.bio).toHaveLength(8000);
  });

  it("shares one client between the loaders of one request (one request scope), never between requests", async () => {
    const scope = new RequestScope();
    const [a, b] = await Promise.all([
      runInRequestScope(scope, async () => requestClient()),
      runInRequestScope(scope, async () => requestClient()),
    ]);
    const c = runInRequestScope(new RequestScope(), () => requestClient());
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });
});

describe("a backend that refuses connections", () => {
  it("is asked once per request: a read isn't retried (postgrest-js waits 1, 2 and 4 s between tries) and later calls fail at once", async () => {
    const { isBackendUnavailable } = await import("./auth-errors.server");
    let attempts = 0;
    // what Node's fetch does when nothing listens on the backend's port
    const refused: typeof fetch = async () => {
      attempts++;
      throw new TypeError("fetch failed", {
        cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
      });
    };
    const scope = new RequestScope({ cookie: "" });
    const client = createRequestClient(scope, { url: "http://127.0.0.1:9", anonKey: "anon", fetch: refused });
    const read = await client.from("teams").select("id");
    expect(read.error).not.toBeNull();
    expect(isBackendUnavailable(read.error)).toBe(true);
    expect(attempts).toBe(1);
    const auth = await client.auth.getUser("a-token");
    expect(isBackendUnavailable(auth.error)).toBe(true);
    const again = await client.from("projects").select("id");
    expect(isBackendUnavailable(again.error)).toBe(true);
    expect(attempts).toBe(1);
  });
});

describe("a request whose answer is decided", () => {
  it("cancels its backend reads still in flight, and a loader that meets the cancelled read logs nothing", async () => {
    const { backendError } = await import("./http.server");
    const signals: AbortSignal[] = [];
    // a backend that answers only when the read is cancelled (a sibling loader's slow read)
    const slow: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        signals.push(init!.signal!);
        init!.signal!.addEventListener("abort", () => reject(init!.signal!.reason));
      });
    const scope = new RequestScope({ cookie: "" });
    const client = createRequestClient(scope, { url: "http://127.0.0.1:9", anonKey: "anon", fetch: slow });
    const logged: unknown[][] = [];
    const error = console.error;
    console.error = (...line: unknown[]) => void logged.push(line);
    try {
      const sibling = runInRequestScope(scope, async () => {
        const { error: failed } = await client.from("saved_views").select("id");
        // what a loader does with a failed read
        if (failed) throw backendError(failed);
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(signals).toHaveLength(1);
      expect(signals[0].aborted).toBe(false);
      // the other loader threw a 404 and the answer went out
      scope.end();
      expect(signals[0].aborted).toBe(true);
      await expect(sibling).rejects.toMatchObject({ status: 503 });
      expect(logged).toEqual([]);
    } finally {
      console.error = error;
    }
  });
});
