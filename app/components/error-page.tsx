import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { useErrorId } from "~/lib/error-id";
import { MESSAGES } from "~/lib/messages";

/**
 * What every error boundary shows: the status's own words, never a stack
 * trace. 503 keeps the person's work (actions return their values instead of
 * throwing); 500 shows an id to quote.
 */
export function ErrorPage({ compact = false }: { compact?: boolean }) {
  const error = useRouteError();
  const errorId = useErrorId();
  let status = 500;
  let title: string = MESSAGES.unexpected;
  let detail: string | null = null;

  if (isRouteErrorResponse(error)) {
    status = error.status;
    const text = typeof error.data === "string" ? error.data : "";
    if (status === 404) title = "Page not found";
    else if (status === 503) title = MESSAGES.backendDown;
    else if (status === 403) title = text || "You can't do that.";
    else if (status === 400) title = text || "That request wasn't right.";
    else if (status === 500) {
      title = MESSAGES.unexpected;
      const id = /error id (\w+)/.exec(text)?.[1];
      detail = id ? `If it keeps happening, quote error id ${id}.` : null;
    } else title = text || MESSAGES.unexpected;
  } else if (errorId) {
    detail = `If it keeps happening, quote error id ${errorId}.`;
  }

  const Heading = compact ? "h2" : "h1";
  return (
    <section className={`error-page${compact ? " compact" : ""}`} aria-labelledby="error-title">
      <p className="error-status">{status === 503 ? "Backend unavailable" : `Error ${status}`}</p>
      <Heading id="error-title">{title}</Heading>
      {status === 404 ? <p>The page you asked for doesn't exist, or you don't have access to it.</p> : null}
      {detail ? <p className="error-detail">{detail}</p> : null}
      <p>
        <Link to="/">Go to the start page</Link>
      </p>
    </section>
  );
}
