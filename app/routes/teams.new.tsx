import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, SubmitButton, ValidatedForm } from "~/components/form";
import { requireUser, signedInPage } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { formFailure } from "~/lib/forms.server";
import { redirect } from "~/lib/http.server";
import { parseForm } from "~/lib/schemas";
import { requestClient } from "~/lib/supabase.server";
import { SLUG_RULE, slugify } from "~/lib/teams";
import { CreateTeamSchema } from "~/lib/teams.schemas";
import { writeFailure } from "~/lib/db-errors.server";
import { createTeam } from "~/lib/teams.server";

export const meta: MetaFunction = () => [{ title: "Create a team · Teamboard" }];

export const loader = signedInPage;

export async function action({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  await requireUser(request);
  const result = parseForm(CreateTeamSchema, await request.formData());
  if (!result.success) return formFailure(result);
  const slug = result.data.slug ?? slugify(result.data.name);
  if (slug.length < 3) {
    return formFailure({ errors: { slug: `Choose a slug: ${SLUG_RULE}` }, values: result.values });
  }
  const { data: team, error } = await createTeam(supabase, result.data.name, slug);
  if (error)
    return writeFailure(error, {
      values: result.values,
      field: error.code === "22023" && /name/i.test(error.message) ? "name" : "slug",
    });
  await setFlash({
    kind: "success",
    message: `${result.data.name} is ready. Create its first project.`,
  });
  throw redirect(`/teams/${team.slug}`);
}

export default function NewTeam() {
  const actionData = useActionData<typeof action>();
  return (
    <section className="card narrow" aria-labelledby="new-team-title">
      <h1 id="new-team-title">Create a team</h1>
      <ValidatedForm schema="CreateTeamSchema" result={actionData}>
        <Field name="name" label="Team name" autoComplete="off" maxLength={60} autoFocus />
        <Field
          name="slug"
          label="Address"
          hint={
            <>
              teamboard/teams/<b>your-slug</b>: {SLUG_RULE} Leave it empty to make one from the name.
            </>
          }
          maxLength={40}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
        <SubmitButton pendingText="Creating…">Create team</SubmitButton>
      </ValidatedForm>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
