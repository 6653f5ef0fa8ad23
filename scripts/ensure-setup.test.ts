import { describe, expect, it } from "vitest";
import { ensureNodeVersion } from "./ensure-setup.mjs";

describe("ensureNodeVersion", () => {
  it("accepts package.json's engines (>= 20.19.0) and names the version it refuses", () => {
    for (const ok of ["20.19.0", "20.20.1", "22.0.0", "24.3.0"]) expect(() => ensureNodeVersion(ok)).not.toThrow();
    for (const old of ["20.18.3", "18.20.4", "19.9.0"])
      expect(() => ensureNodeVersion(old)).toThrow(`Teamboard needs Node 20.19 or later (this is ${old}).`);
  });
});
