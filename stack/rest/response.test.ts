import { describe, expect, it } from "vitest";
import { RestError } from "./errors.ts";
import { negotiate } from "./media.ts";
import { bodyExpr } from "./query.ts";
import { contentRange, preferenceApplied, readStatus } from "./response.ts";

describe("Content-Range and status", () => {
  it("formats ranges as PostgREST does", () => {
    expect(contentRange(0, 9, 100)).toBe("0-9/100");
    expect(contentRange(0, 9, null)).toBe("0-9/*");
    expect(contentRange(0, -1, 0)).toBe("*/0");
    expect(contentRange(1, 0, null)).toBe("*/*");
  });

  it("answers 206 for a partial page, 416 beyond the end, 200 otherwise", () => {
    expect(readStatus(0, 10, 100)).toEqual({ status: 206, range: "0-9/100" });
    expect(readStatus(0, 3, 3)).toEqual({ status: 200, range: "0-2/3" });
    expect(readStatus(10, 0, 3).status).toBe(416);
    expect(readStatus(0, 3, null).status).toBe(200);
  });
});

describe("media types", () => {
  it("negotiates json, single objects, csv and stripped nulls", () => {
    expect(negotiate(undefined).media).toBe("json");
    expect(negotiate("*/*").media).toBe("json");
    expect(negotiate("application/vnd.pgrst.object+json").media).toBe("object");
    expect(negotiate("application/vnd.pgrst.array+json;nulls=stripped")).toMatchObject({
      media: "json",
      stripNulls: true,
    });
    expect(negotiate("text/csv").media).toBe("csv");
    expect(negotiate("application/xml, text/csv").media).toBe("csv");
  });

  it("refuses plans and unknown types with 406 PGRST107", () => {
    for (const accept of ['application/vnd.pgrst.plan+text; for="application/json"', "application/xml"]) {
      try {
        negotiate(accept);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(RestError);
        expect((e as RestError).status).toBe(406);
        expect((e as RestError).code).toBe("PGRST107");
      }
    }
  });
});

describe("plans and GeoJSON, when the database offers them", () => {
  const caps = { plan: true, geoJsonFn: '"extensions".st_asgeojson' };

  it("negotiates explain() with its format, the planned media type and options", () => {
    const n = negotiate(
      'application/vnd.pgrst.plan+text; for="application/json"; options=verbose|settings|bogus;',
      caps,
    );
    expect(n).toMatchObject({
      media: "json",
      plan: { format: "text", options: ["verbose", "settings"] },
      contentType: 'application/vnd.pgrst.plan+text; for="application/json"; charset=utf-8',
    });
    expect(negotiate('application/vnd.pgrst.plan+json; for="text/csv"', caps)).toMatchObject({
      media: "csv",
      plan: { format: "json", options: [] },
    });
  });

  it("answers application/geo+json as a FeatureCollection through PostGIS", () => {
    const n = negotiate("application/geo+json", caps);
    expect(n).toMatchObject({ media: "geojson", contentType: "application/geo+json; charset=utf-8" });
    expect(bodyExpr(n)).toContain(`'FeatureCollection'`);
    expect(bodyExpr(n)).toContain(`"extensions".st_asgeojson(_postgrest_t)`);
    expect(() => negotiate("application/geo+json", { plan: true, geoJsonFn: null })).toThrow(RestError);
  });
});

describe("Preference-Applied", () => {
  it("lists the applied preferences in PostgREST's order", () => {
    expect(
      preferenceApplied({ count: "exact", return: "minimal", resolution: "merge-duplicates" }, [
        "resolution",
        "return",
        "count",
      ]),
    ).toBe("resolution=merge-duplicates, return=minimal, count=exact");
    expect(preferenceApplied({ maxAffected: 5 }, ["maxAffected"])).toBeNull();
    expect(preferenceApplied({ maxAffected: 5, handling: "strict" }, ["handling", "maxAffected"])).toBe(
      "handling=strict, max-affected=5",
    );
  });
});
