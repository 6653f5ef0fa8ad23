import { isRouteErrorResponse, Link, useLocation, useRouteError } from "@remix-run/react";
import { useErrorId } from "~/lib/error-id";
import { MESSAGES } from "~/lib/messages";

/**
 * What every error boundary shows: the status's own words, never a stack
 * trace. A 503 on a page that only reads says nothing was changed and offers
 * "Try again"; a 503 after a form was sent without JavaScript (the page's own
 * reads failed too, so it can't be drawn) shows that form again with every
 * value, to send again; 500 shows an id to quote.
 */
export function ErrorPage({ compact = false }: { compact?: boolean }) {
  const error = useRouteError();
  const errorId = useErrorId();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  let status = 500;
  let title: string = MESSAGES.unexpected;
  let detail: string | null = null;
  let kept: Kept | null = null;

  if (isRouteErrorResponse(error)) {
    status = error.status;
    const text = typeof error.data === "string" ? error.data : "";
    if (status === 404) title = "Page not found";
    else if (status === 503) {
      kept = keptForm(error.data);
      title = kept ? MESSAGES.backendDown : text || MESSAGES.backendDownRead;
    } else if (status === 403) title = text || "You can't do that.";
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
      {kept ? (
        // the form came back in place of the page: what happened is announced
        <div role="alert">
          <Heading id="error-title">{title}</Heading>
        </div>
      ) : (
        <Heading id="error-title">{title}</Heading>
      )}
      {status === 404 ? <p>The page you asked for doesn't exist, or you don't have access to it.</p> : null}
      {detail ? <p className="error-detail">{detail}</p> : null}
      {kept ? <KeptForm kept={kept} action={here} /> : null}
      {status === 503 && !kept ? (
        <p>
          <Link to={here} reloadDocument className="button button-secondary">
            Try again
          </Link>
        </p>
      ) : null}
      <p>
        <Link to="/">Go to the start page</Link>
      </p>
    </section>
  );
}

/** What http.server's 503 keeps of a form (its `KeptForm`, read defensively: it crossed the wire). */
interface Kept {
  fields: Record<string, string>;
  files: string[];
}

function keptForm(body: unknown): Kept | null {
  if (typeof body !== "object" || body === null || !("fields" in body)) return null;
  const { fields, files } = body as { fields: unknown; files?: unknown };
  if (typeof fields !== "object" || fields === null) return null;
  return { fields: fields as Record<string, string>, files: Array.isArray(files) ? (files as string[]) : [] };
}

/** Fields a person doesn't type (which form, which item, where it goes): sent again as they came. */
const HIDDEN = /^(intent|position|next|redirectTo|version)$|[iI]d$/;
const LONG = /^(description|body)$/;

/** The form that was sent, its values in place, posting to the same address. */
function KeptForm({ kept, action }: { kept: Kept; action: string }) {
  const entries = Object.entries(kept.fields);
  return (
    <form
      method="post"
      action={action}
      encType={kept.files.length ? "multipart/form-data" : undefined}
      className="stack kept-form"
      aria-label="Your form"
    >
      <p>Everything you typed is below. Send it again when Teamboard is back.</p>
      {entries.map(([name, value]) =>
        HIDDEN.test(name) ? (
          <input key={name} type="hidden" name={name} value={value} />
        ) : (
          <div key={name} className="field">
            <label htmlFor={`kept-${name}`}>{labelOf(name)}</label>
            {LONG.test(name) || value.includes("\n") ? (
              <textarea id={`kept-${name}`} name={name} defaultValue={value} rows={4} />
            ) : (
              <input id={`kept-${name}`} name={name} defaultValue={value} />
            )}
          </div>
        ),
      )}
      {kept.files.map((name) => (
        <div key={name} className="field">
          <label htmlFor={`kept-${name}`}>{labelOf(name)}</label>
          <p className="hint" id={`kept-${name}-hint`}>
            Choose the files again: a browser doesn't hand them back.
          </p>
          <input id={`kept-${name}`} name={name} type="file" multiple aria-describedby={`kept-${name}-hint`} />
        </div>
      ))}
      <p>
        <button type="submit" className="button">
          Send again
        </button>
      </p>
    </form>
  );
}

/** "dueDate" → "Due date", "display_name" → "Display name". */
function labelOf(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
