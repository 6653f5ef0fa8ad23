import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, SelectField, SubmitButton, ValidatedForm, formState } from "~/components/form";
import { writeFailure } from "~/lib/db-errors.server";
import { setFlash } from "~/lib/flash.server";
import { forbiddenResult, formFailure, originOf } from "~/lib/forms.server";
import { backendError, keepingTheForm, notFound, redirect } from "~/lib/http.server";
import { can } from "~/lib/permissions";
import { parseIntent } from "~/lib/schemas";
import { requireTeamContext } from "~/lib/team-context.server";
import { addressTakenMessage, SLUG_RULE, teamUrl } from "~/lib/teams";
import { settingsActionSchema } from "~/lib/teams.schemas";
import { changeTeamAddress, deleteTeam, listMemberNames, renameTeam, transferOwnership } from "~/lib/teams.server";
import { unlessFormRejected } from "~/lib/revalidation";

export const meta: MetaFunction = () => [{ title: "Team settings · Teamboard" }];

/** A rejected form leaves the page as it is (lib/revalidation.ts). */
export const shouldRevalidate = unlessFormRejected;

export async function loader(args: LoaderFunctionArgs) {
  const { supabase, user, team } = await requireTeamContext(args, { need: "renameTeam" });
  let others: Array<{ id: string; name: string }> = [];
  if (team.role === "owner") {
    const { members, error } = await listMemberNames(supabase, team.id);
    if (error) throw backendError(error);
    others = members.filter((m) => m.id !== user.id);
  }
  return { team, others, origin: originOf(args.request) };
}

export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const { supabase, team } = await requireTeamContext(args);
  const { request } = args;
  const parsed = parseIntent(settingsActionSchema(team.slug), await request.formData());
  if (!parsed) throw notFound();
  const { values } = parsed;

  switch (parsed.intent) {
    case "rename": {
      const { intent } = parsed;
      if (!can(team.role, "renameTeam")) return forbiddenResult({ intent, values });
      if (!parsed.success) return formFailure(parsed);
      const { data: renamed, error } = await renameTeam(supabase, team.id, parsed.data.name);
      if (error) return writeFailure(error, { intent, values, field: "name" });
      if (!renamed) return forbiddenResult({ intent, values });
      await setFlash({
        kind: "success",
        message: `The team is now called ${parsed.data.name}.`,
      });
      throw redirect(`/teams/${team.slug}/settings`);
    }

    case "address": {
      const { intent } = parsed;
      if (!can(team.role, "renameTeam")) return forbiddenResult({ intent, values });
      if (!parsed.success) return formFailure(parsed);
      const origin = originOf(request);
      const { slug } = parsed.data;
      const { data: moved, error } = await changeTeamAddress(supabase, team.id, slug);
      if (error)
        return writeFailure(error, {
          intent,
          values,
          field: "slug",
          messages: { "23505": addressTakenMessage(origin, slug), "23514": `An address has ${SLUG_RULE}` },
        });
      if (!moved) return forbiddenResult({ intent, values });
      await setFlash({ kind: "success", message: `The team's address is now ${teamUrl(origin, slug)}.` });
      throw redirect(`/teams/${slug}/settings`);
    }

    case "transfer": {
      const { intent } = parsed;
      if (!can(team.role, "ownTeam")) return forbiddenResult({ intent, values });
      if (!parsed.success) return formFailure(parsed);
      const { error } = await transferOwnership(supabase, team.id, parsed.data.newOwnerId);
      if (error) return writeFailure(error, { intent, values, field: "newOwnerId" });
      await setFlash({
        kind: "success",
        message: "Ownership is transferred; you are an admin now.",
      });
      throw redirect(`/teams/${team.slug}/members`);
    }

    case "delete": {
      const { intent } = parsed;
      if (!can(team.role, "ownTeam")) return forbiddenResult({ intent, values });
      if (!parsed.success) return formFailure(parsed);
      const { data: deleted, error } = await deleteTeam(supabase, team.id);
      if (error) return writeFailure(error, { intent, values });
      if (!deleted) return forbiddenResult({ intent, values });
      await setFlash({ kind: "success", message: `${team.name} is deleted.` });
      throw redirect("/teams");
    }
  }
  throw notFound();
}

export default function TeamSettings() {
  const { team, others, origin } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const transfer = formState(actionData, "transfer");
  return (
    <div className="settings">
      <h1>Team settings</h1>
      <section className="card" aria-labelledby="rename-title">
        <h2 id="rename-title">Name</h2>
        <ValidatedForm schema="RenameTeamSchema" intent="rename" result={actionData}>
          <Field name="name" label="Team name" defaultValue={team.name} autoComplete="off" maxLength={60} />
          <SubmitButton className="button button-small">Rename team</SubmitButton>
        </ValidatedForm>
      </section>
      <section className="card" aria-labelledby="address-title">
        <h2 id="address-title">Address</h2>
        <ValidatedForm schema="TeamAddressSchema" intent="address" result={actionData}>
          <Field
            name="slug"
            label="Address"
            defaultValue={team.slug}
            hint={
              <>
                {teamUrl(origin, "")}
                <b>{team.slug}</b> now. {SLUG_RULE} Links to the old address stop working.
              </>
            }
            maxLength={40}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
          />
          <SubmitButton className="button button-small">Change address</SubmitButton>
        </ValidatedForm>
      </section>
      {team.role === "owner" ? (
        <>
          <section className="card" aria-labelledby="transfer-title">
            <h2 id="transfer-title">Transfer ownership</h2>
            {others.length === 0 ? (
              <p className="muted">There's nobody else in the team to hand it to yet.</p>
            ) : (
              <ValidatedForm intent="transfer" result={actionData}>
                <SelectField
                  name="newOwnerId"
                  label="New owner"
                  hint="You stay in the team as an admin."
                  options={[
                    { value: "", label: "Choose a member" },
                    ...others.map((m) => ({ value: m.id, label: m.name })),
                  ]}
                  value={transfer.values.newOwnerId ?? ""}
                  error={transfer.errors.newOwnerId}
                />
                <SubmitButton className="button button-small button-secondary">Transfer ownership</SubmitButton>
              </ValidatedForm>
            )}
          </section>
          <section className="card danger-zone" aria-labelledby="delete-title">
            <h2 id="delete-title">Delete team</h2>
            <p>Its projects, tasks and comments are deleted for everyone. This can't be undone.</p>
            <ValidatedForm intent="delete" result={actionData}>
              <Field
                name="confirm"
                label={`Type ${team.slug} to confirm`}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
              />
              <SubmitButton className="button button-danger button-small">Delete this team</SubmitButton>
            </ValidatedForm>
          </section>
        </>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
