import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, FormAlert, SubmitButton, ValidatedForm, formState } from "~/components/form";
import { requireUser } from "~/lib/auth.server";
import { writeFailure, type DbError } from "~/lib/db-errors.server";
import { setFlash } from "~/lib/flash.server";
import { forbiddenResult, formFailure } from "~/lib/forms.server";
import { backendError, keepingTheForm, notFound, redirect } from "~/lib/http.server";
import { can } from "~/lib/permissions";
import { canSeeView, deleteView, listSavedViews, renameView, saveView } from "~/lib/saved-views.server";
import { parseIntent } from "~/lib/schemas";
import { requestClient } from "~/lib/supabase.server";
import { requireProjectContext } from "~/lib/team-context.server";
import { VIEW_KIND_LABELS, viewHref, viewQuery, type SavedView } from "~/lib/views";
import { SavedViewActionSchema } from "~/lib/views.schemas";

/**
 * A project's saved views (docs/product.md §13): the list, with rename and
 * delete for the ones the person may change (their own personal views;
 * shared ones for admins+), and where "Save view" posts. A refused save
 * without JavaScript comes back here, with the name as typed.
 */
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Saved views · ${data.project.name} · Teamboard` : "Saved views · Teamboard" },
];

export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args.request);
  const names = { teamSlug: args.params.team ?? "", projectKey: args.params.key ?? "" };
  // the project context and the views (named by the URL), side by side
  const [{ team, project }, { views, error }] = await Promise.all([
    requireProjectContext(args),
    listSavedViews(requestClient(), names, user.id),
  ]);
  if (error) throw backendError(error);
  const canShare = can(team.role, "shareViews");
  const basePath = `/teams/${team.slug}/projects/${project.key}`;
  return {
    basePath,
    project: { key: project.key, name: project.name },
    // links and words made here, so the page's script needn't carry lib/views
    views: views.map((view) => ({
      id: view.id,
      name: view.name,
      href: viewHref(basePath, view),
      about: describeView(view),
      changeable: view.shared ? canShare : view.mine,
      // a public read-only link to a shared view (docs/product.md §20): admins+, on the project's links page
      shareHref: view.shared && canShare ? `${basePath}/settings/links?view=${view.id}` : null,
    })),
  };
}

/** "List · only you · assignee=me, sort=-due" */
function describeView(view: SavedView): string {
  const query = view.query ? ` · ${decodeURIComponent(view.query.replace(/\+/g, " ")).replace(/&/g, ", ")}` : "";
  return `${VIEW_KIND_LABELS[view.kind]} · ${view.shared ? "shared with the team" : "only you"}${query}`;
}

/** The 21st view and a name used twice, in the app's words (the database's are its own). */
const SAVE_MESSAGES = {
  limit: "You can keep at most 20 views in a project.",
  taken: "You have a view with that name already.",
};

function saveFailure(error: DbError, values: Record<string, string>) {
  if (error.code === "23514" && error.details === "saved_views_limit")
    return formFailure({ intent: "save", errors: { form: SAVE_MESSAGES.limit }, values });
  if (error.code === "23505") return formFailure({ intent: "save", errors: { name: SAVE_MESSAGES.taken }, values });
  return writeFailure(error, { intent: "save", values, field: "name" });
}

export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const { supabase, team, project } = await requireProjectContext(args);
  const parsed = parseIntent(SavedViewActionSchema, await args.request.formData());
  if (!parsed) throw notFound();
  const basePath = `/teams/${team.slug}/projects/${project.key}`;

  switch (parsed.intent) {
    case "save": {
      const { intent, values } = parsed;
      if (values.shared === "on" && !can(team.role, "shareViews")) return forbiddenResult({ intent, values });
      if (!parsed.success) return formFailure(parsed);
      const view = { ...parsed.data, query: viewQuery(new URLSearchParams(parsed.data.query)) };
      const { error } = await saveView(supabase, project.id, {
        name: view.name,
        kind: view.kind,
        query: view.query,
        shared: view.shared,
      });
      if (error) return saveFailure(error, values);
      await setFlash({ kind: "success", message: `Saved the view “${view.name}”.` });
      throw redirect(viewHref(basePath, view));
    }
    case "rename":
    case "delete": {
      const { intent, values } = parsed;
      if (!parsed.success) return formFailure(parsed);
      const { viewId } = parsed.data;
      const done =
        parsed.intent === "rename"
          ? await renameView(supabase, viewId, parsed.data.name)
          : await deleteView(supabase, viewId);
      if (done.error) return writeFailure(done.error, { intent, values, field: "name" });
      if (!done.data) {
        // nothing changed: a view they can't see (404), or one they may not change (403)
        const seen = await canSeeView(supabase, viewId);
        if (seen.error) throw backendError(seen.error);
        if (!seen.visible) throw notFound();
        return forbiddenResult({ intent, values });
      }
      await setFlash({
        kind: "success",
        message: parsed.intent === "rename" ? `Renamed the view to “${parsed.data.name}”.` : "The view is deleted.",
      });
      throw redirect(`${basePath}/views`);
    }
  }
  throw notFound();
}

export default function SavedViewsPage() {
  const { basePath, project, views } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const refusedSave = formState(actionData, "save");
  return (
    <section className="card" aria-labelledby="views-title">
      <p>
        <Link to={basePath}>
          <span aria-hidden="true">← </span>Back to the board
        </Link>
      </p>
      <h1 id="views-title">
        <span className="project-key">{project.key}</span> Saved views
      </h1>
      {refusedSave.values.kind ? (
        <SaveAgain basePath={basePath} result={actionData} values={refusedSave.values} />
      ) : null}
      {views.length === 0 ? (
        <p className="muted">
          No saved views yet. On the board or the list, choose filters (and on the list a sort and grouping), then “Save
          view”.
        </p>
      ) : (
        <ul className="saved-views-list">
          {views.map((view) => (
            <SavedViewItem key={view.id} view={view} actionData={actionData} />
          ))}
        </ul>
      )}
    </section>
  );
}

function SavedViewItem({
  view,
  actionData,
}: {
  view: { id: string; name: string; href: string; about: string; changeable: boolean; shareHref: string | null };
  actionData: unknown;
}) {
  // the answer about this view's forms (a refused rename keeps what was typed)
  const sent = formState(actionData, "rename");
  const mineRefused = sent.values.viewId === view.id;
  const deleteRefused = formState(actionData, "delete").values.viewId === view.id;
  return (
    <li className="saved-views-item">
      <h2 className="saved-view-name">
        <Link to={view.href}>{view.name}</Link>
      </h2>
      <p className="muted">{view.about}</p>
      {view.shareHref ? (
        <p>
          <Link to={view.shareHref}>Share “{view.name}” by a public link</Link>
        </p>
      ) : null}
      {deleteRefused ? <FormAlert>{formState(actionData, "delete").errors.form}</FormAlert> : null}
      {view.changeable ? (
        <div className="saved-view-forms">
          <ValidatedForm schema="RenameViewSchema" intent="rename" result={mineRefused ? actionData : undefined}>
            <input type="hidden" name="viewId" value={view.id} />
            <Field name="name" label={`New name for “${view.name}”`} defaultValue={view.name} maxLength={40} />
            <SubmitButton className="button button-small button-secondary">Rename</SubmitButton>
          </ValidatedForm>
          <Form method="post">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="viewId" value={view.id} />
            <button type="submit" className="button button-small button-danger">
              Delete “{view.name}”
            </button>
          </Form>
        </div>
      ) : null}
    </li>
  );
}

/** A save refused without JavaScript: the form again, with the name as typed and the reason. */
function SaveAgain({
  basePath,
  result,
  values,
}: {
  basePath: string;
  result: unknown;
  values: Record<string, string>;
}) {
  return (
    <ValidatedForm schema="SaveViewSchema" intent="save" result={result} action={`${basePath}/views`}>
      <h2>Save the view</h2>
      <input type="hidden" name="kind" value={values.kind} />
      <input type="hidden" name="query" value={values.query ?? ""} />
      {values.shared ? <input type="hidden" name="shared" value="on" /> : null}
      <Field name="name" label="Name" maxLength={40} hint="1–40 characters." />
      <SubmitButton className="button button-small">Save view</SubmitButton>
    </ValidatedForm>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
