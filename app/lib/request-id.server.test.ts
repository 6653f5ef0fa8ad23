import { describe, expect, it } from "vitest";
import { errorIdForThisRequest, runWithRequestId } from "./request-id.server";

describe("errorIdForThisRequest", () => {
  it("is the server's request id inside its handling, across awaits, and a fresh id elsewhere", async () => {
    const seen = await runWithRequestId("a1b2c3d4", async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return errorIdForThisRequest();
    });
    expect(seen).toBe("a1b2c3d4");
    const outside = errorIdForThisRequest();
    expect(outside).toMatch(/^[0-9a-f]{8}$/);
    expect(outside).not.toBe(errorIdForThisRequest());
  });
});
