import { describe, expect, it } from "vitest";
import { isFunctionName, parseEnvFile, parseFunctionSettings } from "./project.ts";

describe("supabase/config.toml [functions.<name>]", () => {
  it("reads verify_jwt per function and ignores everything else", () => {
    const toml = `project_id = "teamboard"
[api]
verify_jwt = false  # not a function table

[functions.hello]
verify_jwt = false
import_map = "./import_map.json"

[functions."with-dash"] # comment
verify_jwt = true

[db]
port = 54322
`;
    expect(parseFunctionSettings(toml)).toEqual({ hello: { verifyJwt: false }, "with-dash": { verifyJwt: true } });
  });
});

describe("supabase/functions/.env", () => {
  it("reads KEY=value lines, quotes and comments as dotenv does", () => {
    expect(
      parseEnvFile(
        `# comment\nA=1\nexport B = two words # trailing\nC="quoted # kept"\nD='single'\nE="line\\nbreak"\nnot a line\n`,
      ),
    ).toEqual({
      A: "1",
      B: "two words",
      C: "quoted # kept",
      D: "single",
      E: "line\nbreak",
    });
  });
});

describe("function names", () => {
  it("are folder names a URL can hold; _shared and dot folders are not functions", () => {
    expect(isFunctionName("send-invitation")).toBe(true);
    expect(isFunctionName("_shared")).toBe(false);
    expect(isFunctionName(".env")).toBe(false);
    expect(isFunctionName("../etc")).toBe(false);
  });
});
