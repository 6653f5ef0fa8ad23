import type { ShouldRevalidateFunction } from "@remix-run/react";

/**
 * A form the server sent back (rejected: wrong values, a role too low, the
 * backend down) changed nothing, so the page's data isn't read again. Above
 * all when the backend is down: reading again would fail and replace the
 * form the person is typing in with an error page.
 */
export function formWasRejected(args: Parameters<ShouldRevalidateFunction>[0]): boolean {
  const result = args.actionResult as unknown;
  return (
    !!args.formMethod &&
    args.formMethod.toUpperCase() !== "GET" &&
    typeof result === "object" &&
    result !== null &&
    "errors" in result &&
    "values" in result
  );
}

/** For routes with no rule of their own. */
export const unlessFormRejected: ShouldRevalidateFunction = (args) =>
  !formWasRejected(args) && args.defaultShouldRevalidate;
