import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, FormAlert, SelectField, SubmitButton, ValidatedForm, formState } from "~/components/form";
import { newApiToken } from "~/lib/api-tokens.server";
import { requireUser } from "~/lib/auth.server";
import { ApiTokenActionSchema, TOKEN_LIFETIMES } from "~/lib/connect.schemas";
import { formatDateTime } from "~/lib/dates";
import { classifyDbError } from "~/lib/db-errors.server";
import { setFlash } from "~/lib/flash.server";
import { authFailure, formFailure } from "~/lib/forms.server";
import { backendError, backendUnavailableResult, keepingTheForm, redirect } from "~/lib/http.server";
import { checkPassword, failurePage, listTotpFactors, verifyTotp } from "~/lib/mfa.server";
import { parseIntent, submittedValues, type FormValues } from "~/lib/schemas";
import { requestClient } from "~/lib/supabase.server";
import { usePageTime } from "~/lib/use-page-time";

/**
 * /account/tokens: personal API tokens (docs/product.md, Connecting other
 * tools; docs/decisions/0036-api-tokens-and-webhooks.md). A new token needs
 * the password again, and a code from the authenticator app when the
 * account has one; it is shown once, in the answer to the post that made
 * it (the database keeps its SHA-256 only).
 */
export const meta: MetaFunction = () => [{ title: "API tokens · Teamboard" }];

interface TokenRow {
  id: string;
  name: string;
  team_id: string | null;
  mode: "read" | "write";
  prefix: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const supabase = requestClient();
  const [tokens, teams, factors] = await Promise.all([
    supabase
      .from("api_tokens")
      .select("id, name, team_id, mode, prefix, created_at, expires_at, last_used_at, revoked_at")
      .order("created_at", { ascending: false })
      .returns<TokenRow[]>(),
    supabase.from("teams").select("id, name").order("name").returns<{ id: string; name: string }[]>(),
    listTotpFactors(supabase),
  ]);
  if (tokens.error) throw backendError(tokens.error);
  if (teams.error) throw backendError(teams.error);
  if ("status" in factors) throw failurePage(factors);
  return { tokens: tokens.data, teams: teams.data, needsCode: factors.verified.length > 0 };
}

export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const supabase = requestClient();
  const form = await request.formData();
  const parsed = parseIntent(ApiTokenActionSchema, form);
  if (!parsed) return formFailure({ errors: { form: "Unknown action." }, values: submittedValues(form) });
  if (parsed.intent === "revoke") {
    if (!parsed.success) return formFailure(parsed);
    const { error } = await supabase.rpc("revoke_api_token", { token_id: parsed.data.tokenId });
    if (error) return failure(error, parsed.intent, parsed.values);
    await setFlash({ kind: "success", message: "The token is revoked: it stops working within a minute." });
    throw redirect("/account/tokens");
  }
  if (!parsed.success) return formFailure(parsed);
  const { code: _code, password: _password, ...values } = parsed.values;
  const wrong = await checkPassword(user.email, parsed.data.password);
  if (wrong) return authFailure(wrong, { intent: parsed.intent, values });
  const factors = await listTotpFactors(supabase);
  if ("status" in factors) return authFailure(factors, { intent: parsed.intent, values });
  if (factors.verified.length > 0) {
    if (!parsed.data.code) {
      return formFailure({ intent: parsed.intent, errors: { code: "Enter the 6-digit code from your app." }, values });
    }
    const bad = await verifyTotp(supabase, factors.verified[0].id, parsed.data.code);
    if (bad) return authFailure({ ...bad, field: "code" }, { intent: parsed.intent, values });
  }
  const made = newApiToken();
  const { error } = await supabase.rpc("create_api_token", {
    name: parsed.data.name,
    // null: all my teams (the generated types can't say an argument may be null)
    team_id: (parsed.data.teamId || null) as string,
    mode: parsed.data.mode,
    days: Number(parsed.data.days),
    token_hash: made.hash,
    prefix: made.prefix,
  });
  if (error) return failure(error, parsed.intent, values);
  return data({ intent: "created" as const, token: made.token, name: parsed.data.name });
}

function failure(error: { code?: string; message?: string }, intent: string, values: FormValues) {
  const { status, message } = classifyDbError(error);
  if (status === 503) return backendUnavailableResult(values);
  if (status === 500) throw backendError(error);
  return formFailure({ intent, errors: { form: message || "That token doesn't exist." }, values }, status);
}

export default function ApiTokens() {
  const { tokens, teams, needsCode } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { zone } = usePageTime();
  const created = result && "token" in result ? result : null;
  const { values } = formState(created ? null : result, "create");
  const revokeError = result?.intent === "revoke" && "errors" in result ? result.errors.form : undefined;
  const teamName = (id: string | null) =>
    id ? (teams.find((t) => t.id === id)?.name ?? "a team you left") : "All my teams";
  const now = Date.now();
  return (
    <section className="card" aria-labelledby="tokens-title">
      <h1 id="tokens-title">API tokens</h1>
      <p>
        A token lets a script or another tool (n8n, Zapier, your own code) read and change what you can, in one team or
        all of yours, never more. A script trades it for a short-lived key at the backend's{" "}
        <code>/functions/v1/api-token</code> and then calls the API as you would (the guide: docs/api.md).
      </p>
      {created ? (
        <div className="alert alert-success" role="status">
          <p>
            <label htmlFor="new-token">Your new token “{created.name}”</label>
          </p>
          <input id="new-token" className="feed-address" readOnly value={created.token} />
          <p>Copy it now: we keep only a fingerprint of it and can't show it again.</p>
        </div>
      ) : null}
      <h2>Your tokens</h2>
      {revokeError ? <FormAlert autoFocus>{revokeError}</FormAlert> : null}
      {tokens.length === 0 ? (
        <p>You have no API tokens.</p>
      ) : (
        <table className="token-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Reaches</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Revoke</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => {
              const expired = Date.parse(token.expires_at) <= now;
              return (
                <tr key={token.id}>
                  <td>
                    {token.name} <code className="muted">{token.prefix}…</code>
                  </td>
                  <td>
                    {teamName(token.team_id)}, {token.mode === "read" ? "read-only" : "read and write"}
                  </td>
                  <td>
                    <time dateTime={token.expires_at}>{formatDateTime(token.expires_at, zone)}</time>
                  </td>
                  <td>
                    {token.last_used_at ? (
                      <time dateTime={token.last_used_at}>{formatDateTime(token.last_used_at, zone)}</time>
                    ) : (
                      "Never"
                    )}
                  </td>
                  <td>
                    {token.revoked_at ? (
                      "Revoked"
                    ) : expired ? (
                      "Expired"
                    ) : (
                      <Form method="post">
                        <input type="hidden" name="intent" value="revoke" />
                        <input type="hidden" name="tokenId" value={token.id} />
                        <button
                          type="submit"
                          className="button button-danger button-small"
                          aria-label={`Revoke ${token.name}`}
                        >
                          Revoke
                        </button>
                      </Form>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <h2>New token</h2>
      <ValidatedForm schema="ApiTokenSchema" intent="create" result={created ? null : result} aria-label="New token">
        <input type="hidden" name="intent" value="create" />
        <Field name="name" label="Name" hint="What it is for, like “n8n” or “release script”." maxLength={100} />
        <SelectField
          name="teamId"
          label="Team"
          defaultValue={String(values.teamId ?? "")}
          options={[{ value: "", label: "All my teams" }, ...teams.map((t) => ({ value: t.id, label: t.name }))]}
        />
        <SelectField
          name="mode"
          label="Access"
          defaultValue={String(values.mode ?? "read")}
          options={[
            { value: "read", label: "Read-only" },
            { value: "write", label: "Read and write" },
          ]}
        />
        <SelectField
          name="days"
          label="Expires after"
          defaultValue={String(values.days ?? "90")}
          options={TOKEN_LIFETIMES.map((l) => ({ value: String(l.days), label: l.label }))}
        />
        <Field name="password" label="Your password" type="password" autoComplete="current-password" />
        {needsCode ? (
          <Field
            name="code"
            label="Code from your authenticator app"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
          />
        ) : null}
        <SubmitButton className="button">Make the token</SubmitButton>
      </ValidatedForm>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
