import { describe, expect, it } from "vitest";
import { errors, fromPgError, statusForSqlState } from "./errors.ts";
import { closest, closestByTrigrams } from "./hints.ts";

describe("SQLSTATE to HTTP status", () => {
  it("follows PostgREST's table", () => {
    const cases: [string, number][] = [
      ["23505", 409],
      ["23503", 409],
      ["23502", 400],
      ["23514", 400],
      ["42P01", 404],
      ["42883", 404],
      ["25006", 405],
      ["P0001", 400],
      ["P0002", 500],
      ["53300", 503],
      ["08006", 503],
      ["42P17", 500],
      ["22P02", 400],
      ["PT418", 418],
      ["PTxyz", 500],
    ];
    for (const [code, status] of cases) expect(statusForSqlState(code, "", true), code).toBe(status);
  });

  it("answers insufficient privilege with 401 for anon and 403 for a signed-in role", () => {
    expect(statusForSqlState("42501", "permission denied", false)).toBe(401);
    expect(statusForSqlState("42501", "permission denied", true)).toBe(403);
  });
});

describe("database errors as bodies", () => {
  it("passes code, message, detail and hint through", () => {
    const e = fromPgError({ code: "P0001", message: "nope", detail: "d", hint: "h" }, true);
    expect(e.status).toBe(400);
    expect(e.body()).toEqual({ code: "P0001", message: "nope", details: "d", hint: "h" });
  });

  it("gives full control with RAISE SQLSTATE 'PGRST'", () => {
    const e = fromPgError(
      {
        code: "PGRST",
        message: '{"code":"123","message":"custom","hint":"x"}',
        detail: '{"status":418,"headers":{"X-Teapot":"yes"}}',
      },
      true,
    );
    expect(e.status).toBe(418);
    expect(e.headers).toEqual({ "X-Teapot": "yes" });
    expect(e.body()).toEqual({ code: "123", message: "custom", details: null, hint: "x" });
    const broken = fromPgError({ code: "PGRST", message: "not json" }, true);
    expect(broken.code).toBe("PGRST121");
    expect(broken.status).toBe(500);
  });
});

describe("the catalogue's function errors", () => {
  it("words PGRST202 as PostgREST does, with or without arguments and suggestions", () => {
    const none = errors.noFunction("public", "blurb_message", [], true, null).body();
    expect(none).toEqual({
      code: "PGRST202",
      message: "Could not find the function public.blurb_message without parameters in the schema cache",
      details:
        "Searched for the function public.blurb_message without parameters or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.",
      hint: null,
    });
    expect(errors.noFunction("api", "test", ["b", "a"], false, "(a, c)").body()).toMatchObject({
      message: "Could not find the function api.test(a, b) in the schema cache",
      details:
        "Searched for the function api.test with parameters a, b, but no matches were found in the schema cache.",
      hint: "Perhaps you meant to call the function api.test(a, c)",
    });
    expect(errors.noFunction("api", "testt", [], true, "test").hint).toBe(
      "Perhaps you meant to call the function api.test",
    );
  });
});

describe("did you mean", () => {
  it("needs a close name for functions and tables, a loose one for parameter lists", () => {
    expect(
      closest("polymorphic_function_with_unnamed_integer", ["polymorphic_function_with_unnamed_text", "other"]),
    ).toBe("polymorphic_function_with_unnamed_text");
    expect(closest("blurb_message", ["get_messages", "get_status"])).toBeNull();
    expect(closest("(attrs, id)", ["(name, param, val)", "(attr, id)"], 0.33)).toBe("(attr, id)");
    expect(closestByTrigrams("role", ["roles", "actors"])).toBe("roles");
  });
});
