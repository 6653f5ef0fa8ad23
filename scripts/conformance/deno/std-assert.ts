// Deno code (not part of the Node typecheck). The assertions of deno.land/std's
// assert/mod.ts that supabase-js's Deno tests use, on node:assert and
// node:util: the conformance runner maps the std URL here, since this
// machine cannot download it.
import { isDeepStrictEqual, inspect } from "node:util";

export class AssertionError extends Error {
  override name = "AssertionError";
}

export function assert(expr: unknown, msg = "Expected expression to be truthy"): asserts expr {
  if (!expr) throw new AssertionError(msg);
}

export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  if (isDeepStrictEqual(actual, expected)) return;
  throw new AssertionError(
    msg ?? `Values are not equal:\n  actual:   ${inspect(actual)}\n  expected: ${inspect(expected)}`,
  );
}

export function assertExists<T>(actual: T, msg?: string): asserts actual is NonNullable<T> {
  if (actual === undefined || actual === null)
    throw new AssertionError(msg ?? `Expected actual: "${actual}" to not be null or undefined.`);
}
