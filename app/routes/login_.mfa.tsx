import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, HiddenNext, SubmitButton, ValidatedForm } from "~/components/form";
import { needsSecondFactor, requireUser } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { authFailure, formFailure } from "~/lib/forms.server";
import { keepingTheForm, redirect } from "~/lib/http.server";
import { failurePage, listTotpFactors, verifyTotp } from "~/lib/mfa.server";
import { recoverWithCode } from "~/lib/recovery-codes.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { MfaCodeSchema, parseForm, RecoveryCodeSchema } from "~/lib/schemas";
import { requestClient } from "~/lib/supabase.server";

/**
 * GET/POST /login/mfa?next=…: the second step of signing in to an account
 * with an authenticator app. Any page that needs aal2 sends a session at
 * aal1 here (requireUser); the right code steps the session up and goes on
 * to `next`. Without the phone, one of the account's recovery codes removes
 * its authenticator apps and goes on to /account/security to set one up
 * again (docs/decisions/0020). (`login_`: a page of its own, not nested
 * inside the log-in page.)
 */
export const meta: MetaFunction = () => [{ title: "Two-factor sign-in · Teamboard" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { aal: "any" });
  const next = safeRedirect(new URL(request.url).searchParams.get("next"));
  if (!needsSecondFactor(user)) throw redirect(next);
  const factors = await factorsOrContinue(next);
  return { next, email: user.email, factors };
}

export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { aal: "any" });
  const form = await request.formData();
  const next = safeRedirect(form.get("next"));
  if (!needsSecondFactor(user)) throw redirect(next);
  if (form.get("intent") === "recover") {
    const result = parseForm(RecoveryCodeSchema, form);
    if (!result.success) return formFailure({ intent: "recover", ...result });
    const outcome = await recoverWithCode(requestClient(), user.id, result.data.recoveryCode);
    if (outcome === "wrong") {
      const errors = { recoveryCode: "That isn't one of your unused recovery codes." };
      return formFailure({ intent: "recover", errors, values: result.values });
    }
    if (outcome !== "recovered") return authFailure(outcome, { intent: "recover", values: result.values });
    await setFlash({
      kind: "info",
      message:
        "You signed in with a recovery code, so your authenticator app was removed and two-factor sign-in is off. Set up an app again below.",
    });
    throw redirect("/account/security");
  }
  const result = parseForm(MfaCodeSchema, form);
  // a code is never sent back to the page
  const { code: _code, ...values } = result.values;
  if (!result.success) return formFailure({ errors: result.errors, values });
  const failure = await verifyTotp(requestClient(), result.data.factorId, result.data.code);
  if (failure) return authFailure(failure, { values });
  throw redirect(next);
}

/**
 * The account's verified apps. None means the token's claim is older than
 * the last app's removal (on another device): a fresh token says so, and the
 * person goes on without a code.
 */
async function factorsOrContinue(next: string) {
  const supabase = requestClient();
  const factors = await listTotpFactors(supabase);
  if ("status" in factors) throw failurePage(factors);
  if (factors.verified.length > 0) return factors.verified;
  await supabase.auth.refreshSession();
  throw redirect(next);
}

export default function SecondFactor() {
  const { next, email, factors } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const codeResult = result?.intent === "recover" ? undefined : result;
  const chosen = codeResult?.values.factorId ?? factors[0]?.id;
  return (
    <div className="auth-page">
      <h1>Two-factor sign-in</h1>
      <p className="lead">
        Open the authenticator app you set up for <strong>{email}</strong> and enter the 6-digit code it shows for
        Teamboard.
      </p>
      <div className="card">
        <ValidatedForm schema="MfaCodeSchema" result={codeResult}>
          <HiddenNext next={next} />
          {factors.length > 1 ? (
            <div className="field">
              <label htmlFor="mfa-factor">Authenticator app</label>
              <select id="mfa-factor" name="factorId" defaultValue={chosen}>
                {factors.map((factor) => (
                  <option key={factor.id} value={factor.id}>
                    {factor.name}
                  </option>
                ))}
              </select>
            </div>
          ) : (
            <input type="hidden" name="factorId" value={chosen} />
          )}
          <Field
            name="code"
            label="Code"
            inputMode="numeric"
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={7}
            autoFocus
          />
          <SubmitButton className="button button-block" pendingText="Checking…">
            Continue
          </SubmitButton>
        </ValidatedForm>
        <details className="recovery" open={result?.intent === "recover"}>
          <summary>Lost your phone? Use a recovery code</summary>
          <p className="muted">
            One of the ten codes you saved when you turned on two-factor sign-in. It removes your authenticator app, so
            you set one up again next.
          </p>
          <ValidatedForm schema="RecoveryCodeSchema" result={result} intent="recover">
            <HiddenNext next={next} />
            <Field
              name="recoveryCode"
              label="Recovery code"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={20}
            />
            <SubmitButton className="button button-secondary" pendingText="Checking…">
              Use recovery code
            </SubmitButton>
          </ValidatedForm>
        </details>
        <Form method="post" action="/logout" className="form-actions">
          <p className="muted">Not you, or no app at hand? Cancel, and you are logged out.</p>
          <button type="submit" className="button button-secondary">
            Cancel sign-in
          </button>
        </Form>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
