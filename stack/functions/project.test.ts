import { describe, expect, it } from "vitest";
import { absoluteImportMap, stripJsonc } from "./imports.ts";
import { isFunctionName, parseEnvFile, parseFunctionSettings } from "./project.ts";

describe("supabase/config.toml [functions.<name>]", () => {
  it("reads verify_jwt and import_map per function and ignores everything else", () => {
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
    expect(parseFunctionSettings(toml)).toEqual({
      hello: { verifyJwt: false, importMap: "./import_map.json" },
      "with-dash": { verifyJwt: true },
    });
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

describe("a function's deno.json as an import map", () => {
  it("keeps imports and scopes, resolving relative addresses against the file's own place", () => {
    const base = "file:///p/supabase/functions/hello/deno.json";
    const parsed = JSON.parse(
      stripJsonc(`{
        // comments and trailing commas, as deno.jsonc allows
        "compilerOptions": { "strict": true },
        "imports": {
          "lodash": "https://esm.sh/lodash@4",
          "shared/": "../_shared/",
          "@std/path": "jsr:@std/path@^1",
          "//not-a-comment": "./local.ts", /* block */
        },
        "scopes": { "./vendor/": { "x": "/abs/x.ts" } },
      }`),
    );
    expect(absoluteImportMap(parsed, base)).toEqual({
      imports: {
        lodash: "https://esm.sh/lodash@4",
        "shared/": "file:///p/supabase/functions/_shared/",
        "@std/path": "jsr:@std/path@^1",
        "file://not-a-comment/": "file:///p/supabase/functions/hello/local.ts",
      },
      scopes: { "file:///p/supabase/functions/hello/vendor/": { x: "file:///abs/x.ts" } },
    });
  });
});
