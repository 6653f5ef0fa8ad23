import { Avatar } from "~/components/avatar";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ReactNode } from "react";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Pager } from "~/components/board/pager";
import { ErrorPage } from "~/components/error-page";
import { Field, FormAlert, SubmitButton, ValidatedForm, formState } from "~/components/form";
import { setFlash } from "~/lib/flash.server";
import { writeFailure } from "~/lib/db-errors.server";
import { forbiddenResult, formFailure } from "~/lib/forms.server";
import { backendError, backendUnavailableResult, keepingTheForm, notFound, redirect } from "~/lib/http.server";
import { membersActionSchema } from "~/lib/invitations.schemas";
import { formatDate } from "~/lib/dates";
import { usePageTime } from "~/lib/use-page-time";
import {
  findPendingInvitation,
  listPendingInvitations,
  revokeInvitation,
  sendInvitation,
} from "~/lib/invitations.server";
import { pageSearch, parsePage } from "~/lib/paging";
import { listProjects } from "~/lib/projects.server";
import { can, permissionsOf } from "~/lib/permissions";
import { parseIntent } from "~/lib/schemas";
import { requireTeamContext } from "~/lib/team-context.server";
import { ASSIGNABLE_ROLES, ROLE_LABELS } from "~/lib/teams";
import { changeRole, leaveTeam, listMembers, removeMember } from "~/lib/teams.server";
import { unlessFormRejected } from "~/lib/revalidation";

export const meta: MetaFunction = () => [{ title: "Members · Teamboard" }];

/** A rejected form leaves the page as it is (lib/revalidation.ts). */
export const shouldRevalidate = unlessFormRejected;

export async function loader(args: LoaderFunctionArgs) {
  const { supabase, user, team } = await requireTeamContext(args);
  const can = permissionsOf(team.role);
  // the members and (for admins) the pending invitations side by side
  // (a guest's member list is their projects' people: row-level security decides)
  const [{ error, items: members, paging }, pending, projects] = await Promise.all([
    listMembers(supabase, team.id, parsePage(new URL(args.request.url).searchParams)),
    can.manageMembers ? listPendingInvitations(supabase, team.id) : null,
    can.manageMembers ? listProjects(supabase, team.slug, { includeArchived: false, from: 0, to: 99 }) : null,
  ]);
  if (error) throw backendError(error);
  if (pending?.error) throw backendError(pending.error);
  if (projects?.error) throw backendError(projects.error);
  const invitations = pending?.items ?? [];
  const teamProjects = (projects?.data ?? []).map(({ id, key, name }) => ({ id, key, name }));
  return { members, paging, invitations, projects: teamProjects, userId: user.id, myRole: team.role, can };
}

const ANSWERED = "That invitation was already answered or withdrawn.";
const GUEST_NEEDS_PROJECTS = "Choose at least one project for a guest: it is all they will see.";

export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const { supabase, user, team } = await requireTeamContext(args);
  const { request } = args;
  const form = await request.formData();
  const parsed = parseIntent(membersActionSchema(), form);
  if (!parsed) throw notFound();
  const { intent } = parsed;
  // the projects ticked on the invitation form (several fields of one name)
  const projectIds = form.getAll("projectIds").map(String);
  const values = { ...parsed.values, projectIds: projectIds.join(",") };
  const done = async (message: string, to: string) => {
    await setFlash({ kind: "success", message });
    throw redirect(to);
  };
  const membersPath = `/teams/${team.slug}/members`;

  if (parsed.intent === "leave") {
    const { error } = await leaveTeam(supabase, team.id);
    if (error) return writeFailure(error, { intent, values });
    return done(`You left ${team.name}.`, "/teams");
  }

  // every other form is an admin's
  if (!can(team.role, "manageMembers")) return forbiddenResult({ intent, values });
  if (!parsed.success) return formFailure(parsed);

  switch (parsed.intent) {
    case "revoke": {
      const { data: revoked, error } = await revokeInvitation(supabase, team.id, parsed.data.invitationId);
      if (error) return writeFailure(error, { intent, values });
      if (!revoked) return formFailure({ intent, errors: { form: ANSWERED }, values });
      return done(`The invitation to ${revoked.email} is withdrawn.`, membersPath);
    }

    case "invite":
    case "resend": {
      let invite: { email: string; role: (typeof ASSIGNABLE_ROLES)[number]; projectIds: string[] };
      if (parsed.intent === "resend") {
        const { data: pending, error } = await findPendingInvitation(supabase, team.id, parsed.data.invitationId);
        if (error) return writeFailure(error, { intent, values });
        if (!pending || pending.role === "owner") return formFailure({ intent, errors: { form: ANSWERED }, values });
        invite = { email: pending.email, role: pending.role, projectIds: pending.project_ids ?? [] };
      } else {
        invite = { email: parsed.data.email, role: parsed.data.role, projectIds };
        if (invite.role === "guest" && projectIds.length === 0)
          return formFailure({ intent, errors: { projectIds: GUEST_NEEDS_PROJECTS }, values });
      }
      const sent = await sendInvitation(supabase, { teamId: team.id, ...invite });
      if (!sent.ok) {
        if (sent.unavailable) return backendUnavailableResult(values, intent);
        if (sent.status === 404) throw notFound();
        if (sent.status === 403) return forbiddenResult({ intent, values });
        const field =
          sent.code === "invalid_role"
            ? "role"
            : sent.code === "invalid_projects"
              ? "projectIds"
              : sent.code === "invalid_email" || sent.code === "already_member"
                ? "email"
                : "form";
        const status = sent.status === 429 ? 429 : sent.status === 502 ? 503 : 400;
        return formFailure(
          { intent, errors: { [intent === "resend" ? "form" : field]: sent.message }, values },
          status,
        );
      }
      return done(
        `${intent === "resend" ? "A new invitation link went" : "An invitation went"} to ${sent.email}. It is valid for 7 days.`,
        membersPath,
      );
    }

    case "role":
    case "remove": {
      if (parsed.intent === "role") {
        if (parsed.data.userId === user.id)
          return formFailure({ intent, errors: { form: "You can't change your own role." }, values });
        const { data: changed, error } = await changeRole(supabase, team.id, parsed.data.userId, parsed.data.role);
        if (error) return writeFailure(error, { intent, values });
        if (!changed) return forbiddenResult({ intent, values });
        await setFlash({
          kind: "success",
          message: `The role is now ${ROLE_LABELS[parsed.data.role].toLowerCase()}.`,
        });
      } else {
        const { data: removed, error } = await removeMember(supabase, team.id, parsed.data.userId);
        if (error) return writeFailure(error, { intent, values });
        if (!removed) return forbiddenResult({ intent, values });
        await setFlash({ kind: "success", message: "The member is removed from the team." });
      }
      // back to the page the form was on
      const page = parsePage(new URL(request.url).searchParams);
      throw redirect(`${membersPath}${pageSearch(new URLSearchParams(), page)}`);
    }
  }
  throw notFound();
}

export default function Members() {
  const { members, paging, invitations, projects, userId, myRole, can } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const state = formState(actionData);
  const invitingFailed = actionData && "intent" in actionData && actionData.intent === "invite";
  const failure = invitingFailed ? undefined : state.errors.form;
  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">Members</h1>
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      <table className="members-table stack-table">
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
                  <Avatar path={member.avatarPath} name={member.displayName} size={24} /> {member.displayName}
                  {member.userId === userId ? <span className="muted"> (you)</span> : null}
                  {member.username ? <span className="muted small"> @{member.username}</span> : null}
                </td>
                <td data-role-of={member.displayName} data-label="Role">
                  {ROLE_LABELS[member.role]}
                </td>
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
                        <RowAction
                          intent="remove"
                          row={{ userId: member.userId }}
                          className="link-button danger-link"
                          label={`Remove ${member.displayName}`}
                        >
                          Remove
                        </RowAction>
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
      {can.manageMembers ? <Invitations invitations={invitations} projects={projects} result={actionData} /> : null}
    </section>
  );
}

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;
type LoadedInvitation = Loaded["invitations"][number];

/** Admins and the owner: invite by email, and the invitations still waiting (resend, withdraw). */
function Invitations({
  invitations,
  projects,
  result,
}: {
  invitations: LoadedInvitation[];
  projects: Loaded["projects"];
  result: unknown;
}) {
  const sentBack = formState(result, "invite");
  const { zone } = usePageTime();
  const role = sentBack.values.role;
  const ticked = new Set((sentBack.values.projectIds ?? "").split(",").filter(Boolean));
  return (
    <section aria-labelledby="invite-title" className="invitations">
      <h2 id="invite-title">Invite someone</h2>
      {/* keyed by the pending invitations: one more (sent) starts an empty form; a refused one keeps what was typed */}
      <ValidatedForm
        key={invitations.map((i) => i.id).join()}
        schema="InviteSchema"
        intent="invite"
        result={result}
        className="invite-form"
      >
        <Field name="email" label="Email address" type="email" autoComplete="off" maxLength={254} />
        <div className="field">
          <label htmlFor="invite-role">Role</label>
          <select
            id="invite-role"
            name="role"
            defaultValue={role ?? "member"}
            key={role ?? "member"}
            aria-invalid={sentBack.errors.role ? true : undefined}
            aria-describedby={sentBack.errors.role ? "invite-role-error" : undefined}
          >
            {ASSIGNABLE_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
          {sentBack.errors.role ? (
            <p className="field-error" id="invite-role-error">
              {sentBack.errors.role}
            </p>
          ) : null}
        </div>
        {projects.length > 0 ? (
          <fieldset
            className="field invite-projects"
            aria-invalid={sentBack.errors.projectIds ? true : undefined}
            aria-describedby={sentBack.errors.projectIds ? "invite-projects-error" : "invite-projects-hint"}
          >
            <legend>Projects</legend>
            <p className="muted small" id="invite-projects-hint">
              They are added to the projects ticked. A guest sees only these and their people, and may comment.
            </p>
            {projects.map((p) => (
              <label key={p.id} className="checkbox">
                <input type="checkbox" name="projectIds" value={p.id} defaultChecked={ticked.has(p.id)} /> {p.name}{" "}
                <span className="muted small">{p.key}</span>
              </label>
            ))}
            {sentBack.errors.projectIds ? (
              <p className="field-error" id="invite-projects-error">
                {sentBack.errors.projectIds}
              </p>
            ) : null}
          </fieldset>
        ) : null}
        <SubmitButton pendingText="Sending…">Send invitation</SubmitButton>
      </ValidatedForm>
      <h2 id="pending-title">Pending invitations</h2>
      {invitations.length === 0 ? (
        <p className="muted">No invitations waiting for an answer.</p>
      ) : (
        <table className="members-table stack-table" aria-labelledby="pending-title">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Expires</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {invitations.map((invitation) => (
              <tr key={invitation.id} data-invitation={invitation.email}>
                <td>{invitation.email}</td>
                <td data-label="Role">{ROLE_LABELS[invitation.role]}</td>
                <td data-label="Expires">
                  <time dateTime={invitation.expiresAt}>{formatDate(invitation.expiresAt, zone)}</time>
                </td>
                <td>
                  <div className="member-actions">
                    <RowAction
                      intent="resend"
                      row={{ invitationId: invitation.id }}
                      className="button button-small button-secondary"
                      label={`Resend the invitation to ${invitation.email}`}
                    >
                      Resend
                    </RowAction>
                    <RowAction
                      intent="revoke"
                      row={{ invitationId: invitation.id }}
                      className="link-button danger-link"
                      label={`Withdraw the invitation to ${invitation.email}`}
                    >
                      Withdraw
                    </RowAction>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/**
 * A one-button form that posts an intent about one row of a table: `row` is
 * the hidden field naming that row (a member's userId, an invitation's id);
 * `label` says which row for screen readers, where the button's text alone
 * ("Remove") would not.
 */
function RowAction({
  intent,
  row,
  className,
  label,
  children,
}: {
  intent: string;
  row: Record<string, string>;
  className: string;
  label: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(row).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={className} aria-label={label}>
        {children}
      </button>
    </Form>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
