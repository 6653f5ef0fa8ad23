import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Pager } from "~/components/board/pager";
import { ErrorPage } from "~/components/error-page";
import { FormAlert } from "~/components/form";
import { formState } from "~/components/task/fields";
import { requireUser } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { formFailure } from "~/lib/forms.server";
import { backendError, notFound } from "~/lib/http.server";
import { parseForm, submittedValues } from "~/lib/schemas";
import { createServerClient } from "~/lib/supabase.server";
import { ASSIGNABLE_ROLES, hasRole, pageSearch, parsePage, permissionsOf, ROLE_LABELS } from "~/lib/teams";
import { ChangeRoleSchema, RemoveMemberSchema } from "~/lib/teams.schemas";
import { changeRole, forbiddenResult, leaveTeam, listMembers, removeMember, requireTeam, writeFailure } from "~/lib/teams.server";

export const meta: MetaFunction = () => [{ title: "Members · Teamboard" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const client = createServerClient({ request, context });
  const user = await requireUser(client, request);
  const team = await requireTeam(client, user.id, params.team);
  const { error, items: members, paging } = await listMembers(client.supabase, team.id, parsePage(new URL(request.url).searchParams));
  if (error) throw backendError(error, client.headers);
  return data({ members, paging, userId: user.id, myRole: team.role, can: permissionsOf(team.role) }, { headers: client.headers });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const client = createServerClient({ request, context });
  const user = await requireUser(client, request);
  const team = await requireTeam(client, user.id, params.team);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const values = submittedValues(form);

  if (intent === "leave") {
    const { error } = await leaveTeam(client.supabase, team.id);
    if (error) return writeFailure(error, { intent, values }, client.headers);
    await setFlash(request, client.headers, { kind: "success", message: `You left ${team.name}.` });
    throw redirect("/teams", { headers: client.headers });
  }

  if (intent === "role" || intent === "remove") {
    if (!hasRole(team.role, "admin")) return forbiddenResult(client.headers, { intent, values });
    if (intent === "role") {
      const result = parseForm(ChangeRoleSchema, form);
      if (!result.success) return formFailure({ intent, ...result }, client.headers);
      if (result.data.userId === user.id) return formFailure({ intent, errors: { form: "You can't change your own role." }, values }, client.headers);
      const { data: changed, error } = await changeRole(client.supabase, team.id, result.data.userId, result.data.role);
      if (error) return writeFailure(error, { intent, values }, client.headers);
      if (!changed) return forbiddenResult(client.headers, { intent, values });
      await setFlash(request, client.headers, { kind: "success", message: `The role is now ${ROLE_LABELS[result.data.role].toLowerCase()}.` });
    } else {
      const result = parseForm(RemoveMemberSchema, form);
      if (!result.success) return formFailure({ intent, ...result }, client.headers);
      const { data: removed, error } = await removeMember(client.supabase, team.id, result.data.userId);
      if (error) return writeFailure(error, { intent, values }, client.headers);
      if (!removed) return forbiddenResult(client.headers, { intent, values });
      await setFlash(request, client.headers, { kind: "success", message: "The member is removed from the team." });
    }
    // back to the page the form was on
    const page = parsePage(new URL(request.url).searchParams);
    throw redirect(`/teams/${team.slug}/members${pageSearch(new URLSearchParams(), page)}`, { headers: client.headers });
  }

  throw notFound(client.headers);
}

export default function Members() {
  const { members, paging, userId, myRole, can } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const failure = formState(actionData).errors.form;
  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">Members</h1>
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      <table className="members-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            {can.manageMembers ? <th scope="col">Change</th> : null}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => {
            const editable = can.manageMembers && member.role !== "owner" && member.userId !== userId;
            return (
              <tr key={member.userId}>
                <td>
                  {member.displayName}
                  {member.userId === userId ? <span className="muted"> (you)</span> : null}
                  {member.username ? <span className="muted small"> @{member.username}</span> : null}
                </td>
                <td data-role-of={member.displayName}>{ROLE_LABELS[member.role]}</td>
                {can.manageMembers ? (
                  <td>
                    {editable ? (
                      <div className="member-actions">
                        <Form method="post" className="inline-form">
                          <input type="hidden" name="intent" value="role" />
                          <input type="hidden" name="userId" value={member.userId} />
                          <label className="visually-hidden" htmlFor={`role-${member.userId}`}>
                            Role of {member.displayName}
                          </label>
                          <select id={`role-${member.userId}`} name="role" defaultValue={member.role} key={member.role}>
                            {ASSIGNABLE_ROLES.map((role) => (
                              <option key={role} value={role}>
                                {ROLE_LABELS[role]}
                              </option>
                            ))}
                          </select>{" "}
                          <button type="submit" className="button button-small button-secondary">
                            Change role
                          </button>
                        </Form>
                        <Form method="post" className="inline-form">
                          <input type="hidden" name="intent" value="remove" />
                          <input type="hidden" name="userId" value={member.userId} />
                          <button type="submit" className="link-button danger-link" aria-label={`Remove ${member.displayName}`}>
                            Remove
                          </button>
                        </Form>
                      </div>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      {members.length === 0 ? (
        <p className="muted">
          Nobody on this page. <Link to=".">Back to the first page</Link>
        </p>
      ) : null}
      <Pager {...paging} label="Members pages" />
      {myRole !== "owner" ? (
        <Form method="post" className="leave-team">
          <input type="hidden" name="intent" value="leave" />
          <button type="submit" className="button button-small button-secondary">
            Leave this team
          </button>
        </Form>
      ) : (
        <p className="muted small">As the owner you can't leave; transfer ownership in Settings first.</p>
      )}
      {can.manageMembers ? <p className="muted small">Inviting people by email comes with invitations.</p> : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
