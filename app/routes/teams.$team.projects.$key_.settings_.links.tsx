import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { FormAlert, SubmitButton } from "~/components/form";
import { formatDateTime } from "~/lib/dates";
import { writeFailure } from "~/lib/db-errors.server";
import { setFlash } from "~/lib/flash.server";
import { forbiddenResult, formFailure, originOf } from "~/lib/forms.server";
import { backendError, keepingTheForm, notFound, redirect } from "~/lib/http.server";
import { can } from "~/lib/permissions";
import { parseIntent } from "~/lib/schemas";
import { ShareLinkActionSchema } from "~/lib/share-links.schemas";
import { createShareLink, listShareLinks, revokeShareLink, sharedPath } from "~/lib/share-links.server";
import { boardPath, requireProjectContext } from "~/lib/team-context.server";
import { usePageTime } from "~/lib/use-page-time";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Public links · ${data.project.name} · Teamboard` : "Public links · Teamboard" },
];

/**
 * /teams/:team/projects/:key/settings/links (docs/product.md §20): a project's
 * public read-only links, for admins and the owner. Share the board or one of
 * the team's shared views, choosing which fields show and whether comments do;
 * the new address is shown once, in the answer to the post that made it (only
 * its hash is kept). Revoke answers 404 at that address from then on.
 * `?view=<id>` picks a view (the saved views page's "Share" links here).
 */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireProjectContext(args, { need: "manageProjects" });
  const { supabase, project } = ctx;
  const [links, fields, views] = await Promise.all([
    listShareLinks(supabase, project.id),
    supabase
      .from("fields")
      .select("id, name")
      .eq("project_id", project.id)
      .order("position")
      .order("id")
      .returns<Array<{ id: string; name: string }>>(),
    supabase
      .from("saved_views")
      .select("id, name")
      .eq("project_id", project.id)
      .eq("shared", true)
      .order("name")
      .returns<Array<{ id: string; name: string }>>(),
  ]);
  if (links.error) throw backendError(links.error);
  if (fields.error) throw backendError(fields.error);
  if (views.error) throw backendError(views.error);
  const fieldName = new Map(fields.data.map((f) => [f.id, f.name]));
  const viewName = new Map(views.data.map((v) => [v.id, v.name]));
  const picked = new URL(args.request.url).searchParams.get("view");
  return {
    project: { key: project.key, name: project.name },
    settingsPath: `${boardPath(ctx)}/settings`,
    fields: fields.data,
    views: views.data,
    picked: picked && viewName.has(picked) ? picked : "board",
    links: links.data.map((link) => ({
      id: link.id,
      what: link.view_id ? `View “${viewName.get(link.view_id) ?? "?"}”` : "The board",
      shows: [
        "tasks, statuses and labels",
        ...link.field_ids.flatMap((id) => (fieldName.has(id) ? [fieldName.get(id)!] : [])),
        ...(link.show_comments ? ["comments"] : []),
      ].join(", "),
      by: link.creator?.display_name ?? "A former member",
      createdAt: link.created_at,
      revokedAt: link.revoked_at,
    })),
  };
}

export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const ctx = await requireProjectContext(args);
  const { supabase, team, project } = ctx;
  const form = await args.request.formData();
  const parsed = parseIntent(ShareLinkActionSchema, form);
  if (!parsed) throw notFound();
  const { intent, values } = parsed;
  if (!can(team.role, "manageProjects")) return forbiddenResult({ intent, values });
  if (!parsed.success) return formFailure(parsed);
  const fields = parsed.data;
  switch (fields.intent) {
    case "create-link": {
      const fieldIds = form.getAll("field").filter((v): v is string => typeof v === "string" && UUID.test(v));
      if (fieldIds.length > 30) return formFailure({ intent, errors: { form: "Choose at most 30 fields." }, values });
      const { error, secret } = await createShareLink(supabase, {
        projectId: project.id,
        viewId: fields.target === "board" ? null : fields.target,
        fieldIds,
        showComments: fields.comments === "on",
      });
      // 42501: the view is not one of this project's shared views (or no longer exists)
      if (error?.code === "42501")
        return formFailure({
          intent,
          errors: { target: "Choose the board or one of the team's shared views." },
          values,
        });
      if (error || !secret) return writeFailure(error!, { intent, values });
      return data({ intent: "created" as const, address: `${originOf(args.request)}${sharedPath(secret)}` });
    }
    case "revoke-link": {
      const { error, revoked } = await revokeShareLink(supabase, project.id, fields.linkId);
      if (error) return writeFailure(error, { intent, values });
      if (!revoked) throw notFound();
      await setFlash({ kind: "success", message: "The link is revoked: its address now answers “not found”." });
      return redirect(`${boardPath(ctx)}/settings/links`);
    }
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default function ShareLinks() {
  const { project, settingsPath, fields, views, picked, links } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { zone } = usePageTime();
  const address = result && "address" in result ? result.address : null;
  const errors = result && "errors" in result ? result.errors : null;
  const live = links.filter((l) => !l.revokedAt);
  const revoked = links.filter((l) => l.revokedAt);
  return (
    <div className="settings project-settings">
      <p className="back-to-board">
        <Link to={settingsPath}>
          <span aria-hidden="true">←</span> Back to the settings
        </Link>
      </p>
      <h1>
        <span className="project-key">{project.key}</span> {project.name}: public links
      </h1>
      {errors?.form ? <FormAlert autoFocus>{errors.form}</FormAlert> : null}
      {address ? (
        <div className="alert alert-success" role="status">
          <p>
            <label htmlFor="share-address">The new link</label>
          </p>
          <input id="share-address" className="feed-address" readOnly value={address} />
          <p>
            Copy it now: anyone with this address sees what you chose, without signing in. It won't be shown again;
            revoke it here when it's no longer needed.
          </p>
        </div>
      ) : null}
      <section className="card" aria-labelledby="live-links-title">
        <h2 id="live-links-title">Links</h2>
        {live.length === 0 ? <p className="muted">No live links.</p> : null}
        <ul aria-label="Live links">
          {live.map((link) => (
            <li key={link.id}>
              <p>
                <strong>{link.what}</strong> · shows {link.shows}
              </p>
              <p className="muted">
                Made by {link.by}, <time dateTime={link.createdAt}>{formatDateTime(link.createdAt, zone)}</time>
              </p>
              <Form method="post" className="inline-form">
                <input type="hidden" name="intent" value="revoke-link" />
                <input type="hidden" name="linkId" value={link.id} />
                <button type="submit" className="button button-danger button-small">
                  Revoke
                </button>
              </Form>
            </li>
          ))}
        </ul>
        {revoked.length > 0 ? (
          <p className="muted">
            Revoked: {revoked.length} {revoked.length === 1 ? "link" : "links"} (their addresses answer “not found”).
          </p>
        ) : null}
      </section>
      <section className="card" aria-labelledby="new-link-title">
        <h2 id="new-link-title">Share by a link</h2>
        <p className="muted">
          A secret address that shows the tasks with their statuses and labels, read-only, to anyone who has it —
          without signing in. It never shows email addresses or attachments, and shows comments only if you tick them.
          Search engines are asked not to index it.
        </p>
        <Form method="post" aria-label="New link">
          <input type="hidden" name="intent" value="create-link" />
          <div className="field">
            <label htmlFor="share-target">What to share</label>
            <select
              id="share-target"
              name="target"
              defaultValue={result && "values" in result ? (result.values.target ?? picked) : picked}
              aria-describedby={errors?.target ? "share-target-error" : undefined}
            >
              <option value="board">The whole board</option>
              {views.map((v) => (
                <option key={v.id} value={v.id}>
                  View: {v.name}
                </option>
              ))}
            </select>
            {errors?.target ? (
              <p id="share-target-error" className="field-error">
                {errors.target}
              </p>
            ) : null}
          </div>
          {fields.length > 0 ? (
            <fieldset className="field">
              <legend>Fields to show</legend>
              {fields.map((f) => (
                <label key={f.id} className="checkbox">
                  <input type="checkbox" name="field" value={f.id} /> {f.name}
                </label>
              ))}
            </fieldset>
          ) : null}
          <label className="checkbox">
            <input type="checkbox" name="comments" /> Show comments (their authors' names and text)
          </label>
          <SubmitButton className="button">Make the link</SubmitButton>
        </Form>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
