import { describe, expect, it } from "vitest";
import { crossSiteRefusal, isRemixCsrfRefusal } from "./same-origin.server";

function post(headers: Record<string, string>, method = "POST") {
  return new Request("http://localhost:5173/logout", { method, headers });
}

describe("crossSiteRefusal", () => {
  it("lets through what doesn't change anything, and posts from this origin", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"])
      expect(crossSiteRefusal(post({ Origin: "http://evil.example" }, method))).toBeNull();
    expect(crossSiteRefusal(post({ Origin: "http://localhost:5173", Host: "localhost:5173" }))).toBeNull();
    // behind a proxy, the host the browser used
    expect(
      crossSiteRefusal(
        post({ Origin: "https://teamboard.example", Host: "127.0.0.1:3000", "X-Forwarded-Host": "teamboard.example" }),
      ),
    ).toBeNull();
    // no Origin and no Sec-Fetch-Site: not a browser (curl, a server)
    expect(crossSiteRefusal(post({ Host: "localhost:5173" }))).toBeNull();
  });

  it("refuses another site, another port of this host, an opaque origin and same-site fetches", async () => {
    const refused: Record<string, string>[] = [
      { Origin: "http://evil.example", Host: "localhost:5173" },
      { Origin: "http://localhost:5174", Host: "localhost:5173" },
      { Origin: "null", Host: "localhost:5173" },
      { Origin: "not a url", Host: "localhost:5173" },
      { "Sec-Fetch-Site": "same-site", Host: "localhost:5173" },
      { "Sec-Fetch-Site": "cross-site", Host: "localhost:5173" },
    ];
    for (const headers of refused) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const answer = crossSiteRefusal(post(headers, method));
        expect(answer?.status, JSON.stringify(headers)).toBe(403);
      }
    }
    expect(await crossSiteRefusal(post(refused[1]))!.text()).toMatch(/another site/);
  });

  it("recognises Remix's own refusal of a cross-site post to a page route (logged as a refusal, not an error)", async () => {
    const { throwIfPotentialCSRFAttack } = await import("@remix-run/server-runtime/dist/actions.js");
    let thrown: unknown;
    try {
      throwIfPotentialCSRFAttack(new Headers({ Origin: "http://localhost:5174", Host: "localhost:5173" }));
    } catch (error) {
      thrown = error;
    }
    expect(isRemixCsrfRefusal(thrown)).toBe(true);
    expect(isRemixCsrfRefusal(new Error("something else"))).toBe(false);
  });
});
