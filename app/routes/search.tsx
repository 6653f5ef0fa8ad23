import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { PendingNotice } from "~/components/board/pending";
import { ErrorPage } from "~/components/error-page";
import { requireUser } from "~/lib/auth.server";
import { taskRef } from "~/lib/board";
import { backendError, redirect } from "~/lib/http.server";
import { taskAddressByKey } from "~/lib/move.server";
import { requestClient } from "~/lib/supabase.server";
import { searchTasks, type SearchHit } from "~/lib/tasks.server";
import boardStyles from "~/styles/board.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: boardStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.q ? `“${data.q}” · Search · Teamboard` : "Search · Teamboard" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const supabase = requestClient();
  await requireUser(request);
  const params = new URL(request.url).searchParams;
  const q = params.get("q")?.trim().slice(0, 200) ?? "";
  // ?archived=1: the archived tasks (docs/product.md §18), which the plain search leaves out
  const archived = params.get("archived") === "1";
  let hits: SearchHit[] = [];
  let capped = false;
  if (q) {
    // a task's key (WEB-12, or the key it had before it moved) opens that task
    const address = await taskAddressByKey(supabase, q);
    if (address) throw redirect(address);
    const result = await searchTasks(supabase, q, { archived });
    if (result.error) throw backendError(result.error);
    ({ hits, capped } = result);
  }
  return { q, hits, capped, archived };
}

export default function Search() {
  const { q, hits, capped, archived } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.location?.pathname === "/search";
  return (
    <section aria-labelledby="search-title" className="search-page">
      <h1 id="search-title">Search tasks</h1>
      <Form method="get" role="search" aria-labelledby="search-title" className="search-form" key={`${q} ${archived}`}>
        <label htmlFor="search-page-q">Words to find in titles and descriptions</label>
        <div className="search-row">
          <input
            id="search-page-q"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={200}
            enterKeyHint="search"
            autoComplete="off"
          />
          <button type="submit" className="button">
            Search
          </button>
        </div>
        <label className="checkbox-label">
          <input type="checkbox" name="archived" value="1" defaultChecked={archived} /> Archived tasks only
        </label>
      </Form>
      <PendingNotice pending={pending}>Searching…</PendingNotice>
      {q ? (
        hits.length === 0 ? (
          <p>{archived ? `No archived tasks match “${q}”.` : `No tasks match “${q}”.`}</p>
        ) : (
          <>
            <p className="muted">
              {capped
                ? `The ${hits.length} best matches for “${q}” are shown; there may be more. Add words to narrow the search.`
                : `${hits.length} ${archived ? "archived " : ""}${hits.length === 1 ? "task" : "tasks"} for “${q}”.`}
            </p>
            <ol className="search-results">
              {hits.map((hit) => (
                <li key={hit.id} className="card">
                  <Link to={`/teams/${hit.team_slug}/projects/${hit.project_key}/tasks/${hit.number}`}>
                    <span className="task-ref">{taskRef(hit.project_key, hit.number)}</span> {hit.title}
                  </Link>
                  <p className="muted small">
                    {hit.team_name} · {hit.project_name}
                    {hit.project_archived ? " (archived)" : ""} ·{" "}
                    <span className={`status-badge color-${hit.status_color}`}>
                      <span className="swatch" aria-hidden="true" />
                      {hit.status_name}
                    </span>
                  </p>
                </li>
              ))}
            </ol>
          </>
        )
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
