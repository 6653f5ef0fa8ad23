import { describe, expect, it } from "vitest";
import { AuthError } from "./errors.ts";
import { decodeParams } from "./params.ts";

const spec = { email: "string", password: "string?", data: "object", create_user: "bool" } as const;

function failure(text: string) {
  try {
    decodeParams(text, "SignupParams", spec);
  } catch (e) {
    return e as AuthError;
  }
  throw new Error("expected a failure");
}

describe("decodeParams", () => {
  it("reads known fields with Go's zero values and ignores unknown ones", () => {
    expect(decodeParams(JSON.stringify({ email: "a@b.c", extra: 1 }), "SignupParams", spec)).toEqual({
      email: "a@b.c",
      password: null,
      data: null,
      create_user: undefined,
    });
    expect(decodeParams("null", "SignupParams", spec).email).toBe("");
  });

  it("fails like Go's decoder on malformed JSON and wrong types", () => {
    expect(failure("{").code).toBe("bad_json");
    expect(failure("").message).toBe("Could not parse request body as JSON: unexpected end of JSON input");
    expect(failure("[]").message).toBe(
      "Could not parse request body as JSON: json: cannot unmarshal array into Go value of type api.SignupParams",
    );
    expect(failure('{"email":1}').message).toBe(
      "Could not parse request body as JSON: json: cannot unmarshal number into Go struct field SignupParams.email of type string",
    );
    expect(failure('{"create_user":"true"}').status).toBe(400);
    expect(failure('{"data":[1]}').code).toBe("bad_json");
  });
});
