import { describe, expect, it } from "vitest";
import { RequestLog, sequentialDepth } from "./request-log.ts";

const span = (start: number, end: number) => ({ start, end });

describe("sequentialDepth", () => {
  it("counts requests that overlap once and requests that follow each other in turn", () => {
    expect(sequentialDepth([])).toBe(0);
    // token check, then three reads side by side, then one more read
    expect(sequentialDepth([span(0, 20), span(21, 41), span(22, 43), span(21, 40), span(44, 64)])).toBe(3);
    // all side by side
    expect(sequentialDepth([span(0, 20), span(1, 21), span(2, 22)])).toBe(1);
  });

  it("follows the longest chain, not the order the log lists them in", () => {
    expect(sequentialDepth([span(60, 80), span(0, 50), span(0, 20), span(21, 40), span(41, 59)])).toBe(4);
  });
});

describe("RequestLog", () => {
  it("keeps the newest entries up to its limit", () => {
    const log = new RequestLog(2);
    for (const at of [1, 2, 3])
      log.record({ at, start: at, end: at, method: "GET", path: "/", search: "", status: 200, ms: 0 });
    expect(log.list().map((e) => e.at)).toEqual([2, 3]);
  });

  it("counts every request by kind, beyond the entries it keeps", () => {
    const log = new RequestLog(1);
    const refresh = { method: "POST", path: "/auth/v1/token", search: "?grant_type=refresh_token", ms: 1 };
    log.record({ ...refresh, at: 1, start: 1, end: 1, status: 200 });
    log.record({ ...refresh, at: 2, start: 2, end: 2, status: 200 });
    log.record({ ...refresh, at: 3, start: 3, end: 3, status: 400, errorCode: "refresh_token_already_used" });
    expect(log.tally()).toEqual({
      "POST /auth/v1/token?grant_type=refresh_token 200": 2,
      "POST /auth/v1/token?grant_type=refresh_token 400 refresh_token_already_used": 1,
    });
    log.clear();
    expect(log.tally()).toEqual({});
  });
});
