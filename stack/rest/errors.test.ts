import { describe, expect, it } from "vitest";
import { fromPgError, statusForSqlState } from "./errors.ts";

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
