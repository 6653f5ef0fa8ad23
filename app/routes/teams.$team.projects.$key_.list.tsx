import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import type { FormEvent } from "react";
import { BoardFilters } from "~/components/board/board-filters";
import { Pager } from "~/components/board/pager";
import { BulkEditForm } from "~/components/bulk-edit";
import { ErrorPage } from "~/components/error-page";
import { ProjectHeader } from "~/components/project-header";
import { ProjectTabs } from "~/components/project-tabs";
import { SavedViews } from "~/components/saved-views";
import { TaskTable } from "~/components/task-table";
import { requireUser } from "~/lib/auth.server";
import { ARCHIVED_MESSAGE, filterSearch, parseBoardFilters } from "~/lib/board";
import { classifyDbError } from "~/lib/db-errors.server";
import { formFailure } from "~/lib/forms.server";
import { backendError, keepingTheForm, notFound } from "~/lib/http.server";
import { MESSAGES } from "~/lib/messages";
import { ListArrangeForm } from "~/components/list-arrange";
import { changedMessage, parseGroup, parseSort, sortParam } from "~/lib/list";
import { columnFields, fieldParams, parseColumns, parseFieldFilters } from "~/lib/list-fields";
import { parseBulkEdit } from "~/lib/list.schemas";
import { bulkEditTasks, loadList } from "~/lib/list.server";
import { useLiveData } from "~/lib/live";
import { parsePage } from "~/lib/paging";
import { FORBIDDEN_MESSAGE, can, permissionsOf } from "~/lib/permissions";
import { listSavedViews } from "~/lib/saved-views.server";
import { requireProjectContext, withTeamContext } from "~/lib/team-context.server";
import { unlessFormRejected } from "~/lib/revalidation";

/**
 * A project's tasks as a table (docs/product.md §13): sorted (`?sort=`),
 * grouped (`?group=`), filtered as the board is, 100 rows a page, with bulk
 * edit. The fields the team defines (§17): columns (`?columns=`, else those
 * on cards), sort and group by one (`field:<id>`), filters by value
 * (`?f.<id>=`), each group's sums. Live: others' changes to the project's tasks show without a reload.
 */
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.project.name} · List · Teamboard` : "List · Teamboard" },
];

export async function loader(args: LoaderFunctionArgs) {
  const params = new URL(args.request.url).searchParams;
  const query = {
    filters: parseBoardFilters(params),
    sort: parseSort(params.get("sort")),
    group: parseGroup(params.get("group")),
    page: parsePage(params),
    fieldFilters: parseFieldFilters(params),
  };
  const columns = parseColumns(params);
  const key = args.params.key;
  const user = await requireUser(args.request);
  // the team, the page of tasks and the saved views, side by side: one round trip
  const {
    team,
    read: [result, saved],
  } = await withTeamContext(args, (supabase) => {
    if (!key || !/^[A-Z]{2,10}$/.test(key)) throw notFound();
    const names = { teamSlug: args.params.team!, projectKey: key };
    return Promise.all([loadList(supabase, names, query), listSavedViews(supabase, names, user.id)]);
  });
  if (result.error) throw backendError(result.error);
  if (saved.error) throw backendError(saved.error);
  const list = result.list;
  if (!list) throw notFound();
  const archived = list.project.archived_at !== null;
  return {
    team: { id: team.id, slug: team.slug, name: team.name },
    project: { ...list.project, archived },
    rows: list.rows,
    paging: list.paging,
    members: list.members,
    statuses: list.statuses,
    labels: list.labels,
    fields: list.fields,
    columns: columnFields(list.fields, columns).map((f) => f.id),
    query: { ...query, sort: sortParam(query.sort), columns },
    savedViews: saved.views,
    userId: user.id,
    can: permissionsOf(team.role, { archived }),
  };
}

// a form sent back (the backend down: the saved view's name, the bulk edit) keeps the page as it is
export const shouldRevalidate = unlessFormRejected;

export const action = keepingTheForm(act);

async function act(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  if (form.get("intent") !== "bulk") throw notFound();
  const edit = parseBulkEdit(form);
  const values: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string" && !name.endsWith("ids")) values[name] = value;
  // a refused edit comes back with the ticked rows, so the page shows them ticked again
  const refused = (errors: Record<string, string>, status = 400) =>
    formFailure(
      { intent: "bulk" as const, errors, values, extra: { selection: { ids: edit.ids, all: edit.all } } },
      status,
    );
  // the backend is down: the message, and the rows stay ticked (keepingTheForm keeps the fields for a page without JavaScript)
  const context = await requireProjectContext(args).catch((thrown: unknown) => {
    if (thrown instanceof Response && thrown.status === 503) return null;
    throw thrown;
  });
  if (!context) return refused({ form: MESSAGES.backendDown }, 503);
  const { supabase, team, archived } = context;
  // the role's rule first (the database checks every row again, all or nothing)
  if (!can(team.role, edit.ok && edit.change === "delete" ? "deleteTasks" : "editTasks"))
    return refused({ form: NOTHING_CHANGED }, 403);
  if (!edit.ok) return refused({ [edit.field]: edit.message });
  if (archived) return refused({ form: ARCHIVED_MESSAGE });
  const { data: count, error } = await bulkEditTasks(supabase, edit.ids, edit.change, edit.value);
  if (error) {
    const { status, message } = classifyDbError(error);
    if (status === 503) return refused({ form: MESSAGES.backendDown }, 503);
    if (status === 500) throw backendError(error);
    if (status === 403) return refused({ form: NOTHING_CHANGED }, 403);
    return refused({ form: status === 404 ? "Some of those tasks don't exist any more." : message }, status);
  }
  // no redirect: the page comes back with the same rows ticked and the result beside the bar (issue 42 §7);
  // the loader runs again after the post, so the table shows the change
  return data({
    intent: "bulk" as const,
    done: changedMessage(Number(count)),
    selection: { ids: edit.ids, all: edit.all },
  });
}

/** docs/product.md §9: a bulk edit touching one task the person may not change. */
const NOTHING_CHANGED = `${FORBIDDEN_MESSAGE} Nothing was changed.`;

export default function ListPage() {
  const { team, project, rows, paging, members, statuses, labels, fields, columns, query, savedViews, can, userId } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const selection = (actionData as { selection?: { ids: string[]; all: boolean } } | undefined)?.selection;
  const location = useLocation();
  const navigation = useNavigation();
  const basePath = `/teams/${team.slug}/projects/${project.key}`;
  const listPath = `${basePath}/list`;
  const sort = parseSort(query.sort);
  const names = Object.fromEntries(members.map((m) => [m.id, m.name]));
  const search = filterSearch(query.filters);
  const keep: Record<string, string> = fieldParams(query.columns, query.fieldFilters);
  if (query.sort !== "key") keep.sort = query.sort;
  if (query.group) keep.group = query.group;
  const selected = new Set<string>(selection?.ids ?? []);
  const pending = navigation.state === "loading" && navigation.location.pathname === listPath;
  // the board's scope: a refresh of the project's tasks (labels put on or taken off write them too),
  // its statuses and the team's labels, whichever view shows them
  useLiveData(
    "board",
    [
      { table: "tasks", filter: `project_id=eq.${project.id}` },
      { table: "project_statuses", filter: `project_id=eq.${project.id}` },
      { table: "labels", filter: `team_id=eq.${team.id}` },
    ],
    { tasks: rows.map((r) => r.id), project_statuses: statuses.map((s) => s.id), labels: labels.map((l) => l.id) },
  );

  return (
    <div className="list-page" aria-busy={pending || undefined}>
      <ProjectHeader project={project} basePath={basePath} search={search} can={can} />
      <ProjectTabs basePath={basePath} search={search}>
        <SavedViews basePath={basePath} views={savedViews} canShare={can.shareViews} />
      </ProjectTabs>
      {project.archived ? <p className="alert alert-info">{ARCHIVED_MESSAGE}</p> : null}
      <BoardFilters
        filters={query.filters}
        members={members}
        labels={labels}
        userId={userId}
        basePath={listPath}
        formKey={location.search}
        keep={keep}
      />
      <ListArrangeForm
        query={query}
        fields={fields}
        columns={columns}
        fieldFilters={query.fieldFilters}
        members={members}
        key={location.search}
      />
      {/* remounted by every navigation: an edit's answer, done or refused, ticks its rows again */}
      <div key={location.key} onChange={tickAll} className="bulk-area">
        {can.editTasks ? (
          <BulkEditForm
            pageIds={rows.map((row) => row.id)}
            members={members}
            statuses={statuses}
            labels={labels}
            canDelete={can.deleteTasks}
            allTicked={selection?.all ?? false}
            result={actionData}
            fields={fields}
          />
        ) : null}
        {rows.length === 0 ? (
          <p className="muted">No tasks match.</p>
        ) : (
          <div className="task-table-wrap">
            <TaskTable
              rows={rows}
              sort={sort}
              group={query.group}
              names={names}
              caption={`Tasks of ${project.name}`}
              taskHref={(row) => `${basePath}/tasks/${row.number}${search}`}
              selection={can.editTasks ? { form: "bulk-edit", selected } : undefined}
              fields={fields.filter((f) => columns.includes(f.id))}
              allFields={fields}
            />
          </div>
        )}
      </div>
      <Pager {...paging} label="Pages of tasks" />
    </div>
  );
}

/** "All on this page" ticks every row (with JavaScript; without it the server reads `all`); a row unticked unticks it. */
function tickAll(event: FormEvent<HTMLDivElement>) {
  const input = event.target as HTMLInputElement;
  if (input.type !== "checkbox") return;
  const root = event.currentTarget;
  if (input.name === "all")
    root.querySelectorAll<HTMLInputElement>('input[name="ids"]').forEach((box) => (box.checked = input.checked));
  else if (input.name === "ids" && !input.checked) {
    const all = root.querySelector<HTMLInputElement>('input[name="all"]');
    if (all) all.checked = false;
  }
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
