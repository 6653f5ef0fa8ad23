import type { LoaderFunctionArgs } from "@remix-run/node";
import { isBackendUnavailable } from "~/lib/auth-errors.server";
import { unexpectedError } from "~/lib/http.server";
import { MESSAGES } from "~/lib/messages";
import { requestScope } from "~/lib/request-scope.server";
import { sharedPageHtml } from "~/components/shared-page.server";
import { sharedBoard, takeSharedPageTurn, type SharedBoard } from "~/lib/share-links.server";

/**
 * GET /shared/<secret>: a public read-only link (docs/product.md §20), a
 * project's board or a shared saved view for anyone holding the address. A
 * resource route that prints the whole page itself: no sign-in, no session
 * read or written (no cookie in or out), no JavaScript, `noindex` (meta and
 * X-Robots-Tag), never cached by a shared cache. What it shows is what
 * shared_board() answers: the sharer's choice, never emails or attachments.
 * An unknown, revoked or malformed address is a 404 with an empty body
 * (§22); more than 60 views a minute from one address a 429.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const wait = takeSharedPageTurn(requestScope().client);
  if (wait > 0) {
    return new Response(MESSAGES.tooManyRequests(wait), {
      status: 429,
      headers: {
        ...PRIVATE,
        "Cache-Control": "no-store",
        "Content-Type": "text/plain; charset=utf-8",
        "Retry-After": String(wait),
      },
    });
  }
  let board: SharedBoard | null;
  try {
    board = await sharedBoard(params.secret ?? "");
  } catch (error) {
    if (isBackendUnavailable(error))
      return new Response(MESSAGES.backendDownRead, {
        status: 503,
        headers: {
          ...PRIVATE,
          "Cache-Control": "no-store",
          "Content-Type": "text/plain; charset=utf-8",
          "Retry-After": "60",
        },
      });
    throw unexpectedError(error);
  }
  if (!board) return new Response(null, { status: 404, headers: { ...PRIVATE, "Cache-Control": "no-store" } });
  const html = sharedPageHtml(board);
  return new Response(html, {
    status: 200,
    headers: {
      ...PRIVATE,
      "Content-Type": "text/html; charset=utf-8",
      // the sharer may revoke it any time: no cache keeps a copy, the browser's own included
      "Cache-Control": "private, no-store",
    },
  });
}

/** The address is the secret: no page it opens should pass it on, and no search engine keep it. */
const PRIVATE = {
  "Referrer-Policy": "no-referrer",
  "X-Robots-Tag": "noindex, nofollow",
  "X-Content-Type-Options": "nosniff",
};
