import type { LoaderFunctionArgs } from "@remix-run/node";
import { isBackendUnavailable } from "~/lib/auth-errors.server";
import { calendarFeed } from "~/lib/calendar-feed.server";
import { originOf } from "~/lib/forms.server";
import { unexpectedError } from "~/lib/http.server";
import { MESSAGES } from "~/lib/messages";

/**
 * GET /calendar/<token>.ics: a person's calendar feed (docs/product.md §12), for
 * calendar apps. A resource route that never reads or writes the session:
 * the token is the only key, and the answer carries no cookie. An unknown,
 * reset or malformed token is a 404 with an empty body (§16).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const name = params.feed ?? "";
  if (!name.endsWith(".ics")) return empty(404);
  let feed;
  try {
    feed = await calendarFeed(name.slice(0, -".ics".length), originOf(request));
  } catch (error) {
    if (isBackendUnavailable(error))
      return new Response(MESSAGES.backendDown, { status: 503, headers: { "Retry-After": "60", ...PRIVATE } });
    throw unexpectedError(error);
  }
  if (!feed.found) return empty(404);
  const headers: Record<string, string> = {
    ...PRIVATE,
    "Content-Type": "text/calendar; charset=utf-8",
    "Content-Disposition": 'inline; filename="teamboard.ics"',
    // calendar apps poll; five minutes between real reads, then a cheap 304 while nothing changed
    "Cache-Control": "private, max-age=300",
    ETag: feed.etag,
  };
  if (feed.lastModified) headers["Last-Modified"] = feed.lastModified.toUTCString();
  if (request.headers.get("If-None-Match") === feed.etag) return new Response(null, { status: 304, headers });
  return new Response(feed.body, { status: 200, headers });
}

/** The address is the secret: no page it opens should pass it on, and no search engine keep it. */
const PRIVATE = { "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex", "X-Content-Type-Options": "nosniff" };

function empty(status: number) {
  return new Response(null, { status, headers: { ...PRIVATE, "Cache-Control": "no-store" } });
}
