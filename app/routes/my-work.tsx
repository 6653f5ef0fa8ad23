import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Pager } from "~/components/board/pager";
import { ErrorPage } from "~/components/error-page";
import { TaskTable } from "~/components/task-table";
import { requireUser } from "~/lib/auth.server";
import { backendError } from "~/lib/http.server";
import { parseSort, sortParam, type Sort } from "~/lib/list";
import { MY_WORK_LISTS, loadMyWork, type MyWorkList } from "~/lib/list.server";
import { parsePage } from "~/lib/paging";
import { requestClient } from "~/lib/supabase.server";
import boardStyles from "~/styles/board.css?url";

/**
 * My work (docs/product.md §13): four lists across all my teams (assigned
 * to me and open; mine due within 7 days or overdue; watching; created by
 * me), each sortable (`?assigned.sort=due`) and paged (`?assigned.page=2`),
 * 50 a page. The four are read side by side: one round trip. The first two
 * are mine, so they have no Assignee column.
 */
export const links: LinksFunction = () => [{ rel: "stylesheet", href: boardStyles }];

export const meta: MetaFunction = () => [{ title: "My work · Teamboard" }];

const TITLES: Record<MyWorkList, string> = {
  assigned: "Assigned to me",
  due: "Due within 7 days or overdue",
  watching: "Watching",
  created: "Created by me",
};

/** Each list's order until its header is clicked: what is due first; created, the newest first. */
const DEFAULT_SORT: Record<MyWorkList, Sort> = {
  assigned: { key: "due", descending: false },
  due: { key: "due", descending: false },
  watching: { key: "updated", descending: true },
  created: { key: "updated", descending: true },
};

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const params = new URL(request.url).searchParams;
  const supabase = requestClient();
  const lists = await Promise.all(
    MY_WORK_LISTS.map(async (list) => {
      const sort = parseSort(params.get(`${list}.sort`), DEFAULT_SORT[list]);
      const page = parsePage(params, `${list}.page`);
      const { error, page: found } = await loadMyWork(supabase, list, sort, page);
      if (error) throw backendError(error);
      return { list, sort: sortParam(sort), ...found };
    }),
  );
  return { lists };
}

export default function MyWork() {
  const { lists } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="my-work-title" className="my-work">
      <h1 id="my-work-title">My work</h1>
      {lists.map(({ list, sort, rows, paging, names }) => (
        <section key={list} aria-labelledby={`my-work-${list}`} className="my-work-list">
          <h2 id={`my-work-${list}`}>{TITLES[list]}</h2>
          {rows === null ? (
            <p className="muted">Watching tasks arrives with notifications.</p>
          ) : rows.length === 0 ? (
            <p className="muted">Nothing here.</p>
          ) : (
            <div className="task-table-wrap">
              <TaskTable
                rows={rows}
                sort={parseSort(sort)}
                names={names}
                caption={TITLES[list]}
                taskHref={(row) => `/teams/${row.team_slug}/projects/${row.project_key}/tasks/${row.number}`}
                sortParam={`${list}.sort`}
                pageParam={`${list}.page`}
                showProject
                hide={list === "assigned" || list === "due" ? ["assignee"] : []}
              />
            </div>
          )}
          <Pager {...paging} name={`${list}.page`} label={`Pages of ${TITLES[list].toLowerCase()}`} />
        </section>
      ))}
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
