import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, SubmitButton, ValidatedForm } from "~/components/form";
import { requireUser, signedInPage } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { formFailure, originOf } from "~/lib/forms.server";
import { keepingTheForm, redirect } from "~/lib/http.server";
import { parseForm } from "~/lib/schemas";
import { requestClient } from "~/lib/supabase.server";
import { addressTakenMessage, SLUG_RULE, slugify, teamUrl } from "~/lib/teams";
import { CreateTeamSchema } from "~/lib/teams.schemas";
import { writeFailure } from "~/lib/db-errors.server";
import { createTeam } from "~/lib/teams.server";

export const meta: MetaFunction = () => [{ title: "Create a team · Teamboard" }];

export async function loader(args: LoaderFunctionArgs) {
  await signedInPage(args);
  // the address hint and a taken address show the real URL
  return { origin: originOf(args.request) };
}

export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  await requireUser(request);
  const result = parseForm(CreateTeamSchema, await request.formData());
  if (!result.success) return formFailure(result);
  const slug = result.data.slug ?? slugify(result.data.name);
  if (slug.length < 3) {
    return formFailure({ errors: { slug: `Choose an address: ${SLUG_RULE}` }, values: result.values });
  }
  const { data: team, error } = await createTeam(supabase, result.data.name, slug);
  if (error)
    return writeFailure(error, {
      values: result.values,
      field: error.code === "22023" && /name/i.test(error.message) ? "name" : "slug",
      // addresses are global: say which one exists (made from the name, when the field was left empty)
      messages: { "23505": addressTakenMessage(originOf(request), slug) },
    });
  await setFlash({
    kind: "success",
    message: `${result.data.name} is ready. Create its first project.`,
  });
  throw redirect(`/teams/${team.slug}`);
}

export default function NewTeam() {
  const { origin } = useLoaderData<typeof loader>();
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
              {teamUrl(origin, "")}
              <b>your-address</b>: {SLUG_RULE} Leave it empty to make one from the name. You can change it later in the
              team's settings.
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
