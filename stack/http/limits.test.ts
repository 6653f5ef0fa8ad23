import { describe, expect, it } from "vitest";
import {
  BodyTooLargeError,
  boundBody,
  DEFAULT_LIMITS,
  bracketDepth,
  checkFormField,
  checkQueryParam,
  jsonTextDepth,
  parseJsonWithLimits,
  readBodyLimited,
} from "./limits.ts";

/** Depth of a parsed value, iteratively. */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v !== null && typeof v === "object") {
      max = Math.max(max, d + 1);
      for (const x of Object.values(v)) stack.push([x, d + 1]);
    }
  }
  return max;
}

let seed = 7;
const rand = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
const STRINGS = ["", "a", "[", "]", "{", "}", '\\"', "\\\\", "\u00e9", "\u{1F600}", "(((", "]]}}"];

function randomJson(depth: number): unknown {
  if (depth === 0 || rand(4) === 0) {
    const kind = rand(4);
    if (kind === 0) return rand(1000);
    if (kind === 1) return null;
    return Array.from({ length: rand(4) }, () => STRINGS[rand(STRINGS.length)]).join("");
  }
  if (rand(2)) return Array.from({ length: 1 + rand(3) }, () => randomJson(depth - 1));
  return Object.fromEntries(
    Array.from({ length: 1 + rand(3) }, (_, i) => [`${STRINGS[rand(STRINGS.length)]}${i}`, randomJson(depth - 1)]),
  );
}

describe("JSON nesting is counted on the text", () => {
  it("agrees with the parsed depth for 2,000 random documents, brackets inside strings included", () => {
    for (let i = 0; i < 2000; i++) {
      const value = randomJson(rand(12));
      const text = JSON.stringify(value);
      expect(jsonTextDepth(text)).toBe(depthOf(value));
    }
  });

  it("refuses deep bodies before parsing them and accepts the limit itself", () => {
    const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
    expect(parseJsonWithLimits(deep(64), DEFAULT_LIMITS).ok).toBe(true);
    expect(parseJsonWithLimits(deep(65), DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      violation: { message: "The request body is nested too deeply" },
    });
    expect(parseJsonWithLimits(deep(1_000_000), DEFAULT_LIMITS).ok).toBe(false);
    expect(parseJsonWithLimits("{nope", DEFAULT_LIMITS)).toEqual({ ok: false, syntax: true });
  });

  it("checks string and array lengths, and never counts brackets inside strings or keys", () => {
    const limits = { ...DEFAULT_LIMITS, stringLength: 10, arrayLength: 3, bracketDepth: 2 };
    expect(parseJsonWithLimits(JSON.stringify({ a: "x".repeat(11) }), limits).ok).toBe(false);
    expect(parseJsonWithLimits(JSON.stringify({ a: [1, 2, 3, 4] }), limits).ok).toBe(false);
    expect(parseJsonWithLimits(JSON.stringify({ a: "(((x", "[[[": "{{{{" }), limits).ok).toBe(true);
    // a description with 200 unclosed brackets of each kind is text
    const text = `${"(".repeat(200)}${"[".repeat(200)}${"{".repeat(200)}`;
    expect(parseJsonWithLimits(JSON.stringify({ description: text }), DEFAULT_LIMITS)).toEqual({
      ok: true,
      value: { description: text },
    });
  });
});

describe("query parameters", () => {
  it("bounds length and bracket nesting of names and values", () => {
    expect(bracketDepth("a(b[c{d}])e)))")).toBe(3);
    expect(checkQueryParam("title", `match.${"(".repeat(129)}`, DEFAULT_LIMITS)?.message).toBe(
      "A query parameter is nested too deeply",
    );
    expect(checkQueryParam("title", `match.${"(".repeat(128)}`, DEFAULT_LIMITS)).toBeNull();
    expect(checkQueryParam("x".repeat(20_000), "eq.1", DEFAULT_LIMITS)?.message).toBe("A query parameter is too long");
  });

  it("bounds a form field's length and NULs, not its brackets (a form value is a string value)", () => {
    expect(checkFormField("description", "(".repeat(10_000), DEFAULT_LIMITS)).toBeNull();
    expect(checkFormField("description", "x".repeat(20_000), DEFAULT_LIMITS)).toBeNull();
    expect(checkFormField("description", "x".repeat(DEFAULT_LIMITS.stringLength + 1), DEFAULT_LIMITS)?.message).toBe(
      "A form field is too long",
    );
    expect(checkFormField("a\u0000", "1", DEFAULT_LIMITS)?.message).toBe("A form field contains a NUL character");
  });
});

describe("reading a body stops at the limit", () => {
  function streamOf(total: number, chunk = 64 * 1024) {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= total) return controller.close();
        const n = Math.min(chunk, total - sent);
        sent += n;
        controller.enqueue(new Uint8Array(n));
      },
    });
    return { body, sent: () => sent };
  }

  it("without Content-Length: reads little more than the limit of an endless upload", async () => {
    const s = streamOf(800 * 1024 * 1024);
    const request = new Request("http://x/", { method: "POST", body: s.body, duplex: "half" } as RequestInit);
    await expect(readBodyLimited(request, 1024 * 1024)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(s.sent()).toBeLessThan(2 * 1024 * 1024);
  });

  it("with a Content-Length over the limit: reads nothing", async () => {
    const s = streamOf(10 * 1024 * 1024);
    const request = new Request("http://x/", {
      method: "POST",
      body: s.body,
      duplex: "half",
      headers: { "content-length": String(10 * 1024 * 1024) },
    } as RequestInit);
    await expect(readBodyLimited(request, 1024 * 1024)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(s.sent()).toBeLessThanOrEqual(64 * 1024);
  });

  it("returns a body at or under the limit whole", async () => {
    const s = streamOf(1024 * 1024, 1000);
    const request = new Request("http://x/", { method: "POST", body: s.body, duplex: "half" } as RequestInit);
    expect((await readBodyLimited(request, 1024 * 1024)).byteLength).toBe(1024 * 1024);
  });
});

describe("a body bounded by the gateway", () => {
  const stream = (total: number) => {
    let sent = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= total) return controller.close();
        sent += 1000;
        controller.enqueue(new Uint8Array(1000));
      },
    });
  };
  const post = (total: number, headers: Record<string, string> = {}) =>
    new Request("http://x/", { method: "POST", body: stream(total), headers, duplex: "half" } as RequestInit);

  it("can't be read past the limit, by any reader", async () => {
    await expect(boundBody(post(10_000), 5_000).arrayBuffer()).rejects.toBeInstanceOf(BodyTooLargeError);
    await expect(boundBody(post(10_000, { "content-length": "10000" }), 5_000).text()).rejects.toBeInstanceOf(
      BodyTooLargeError,
    );
    // a reader with a higher limit of its own still stops at the gateway's
    await expect(readBodyLimited(boundBody(post(10_000), 5_000), 20_000)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it("leaves a body within the limit, and requests without one, as they are", async () => {
    const within = post(4_000, { "content-length": "4000" });
    expect(boundBody(within, 5_000)).toBe(within);
    expect((await boundBody(post(5_000), 5_000).arrayBuffer()).byteLength).toBe(5_000);
    const get = new Request("http://x/");
    expect(boundBody(get, 0)).toBe(get);
  });
});
