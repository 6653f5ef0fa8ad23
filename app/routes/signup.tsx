import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { BrowserTimeZone } from "~/components/auth/browser-time-zone";
import { Field, HiddenNext, SubmitButton, ValidatedForm } from "~/components/form";
import { describeAuthError } from "~/lib/auth-errors.server";
import { requireAnonymous } from "~/lib/auth.server";
import { authFailure, formFailure, originOf } from "~/lib/forms.server";
import { keepingTheForm, redirect } from "~/lib/http.server";
import { MESSAGES } from "~/lib/messages";
import { safeRedirect } from "~/lib/safe-redirect";
import { OtpSchema, parseForm, SignupSchema } from "~/lib/schemas";
import { verifyEmailCode } from "~/lib/sign-in.server";
import { setFlash } from "~/lib/flash.server";
import { requestClient } from "~/lib/supabase.server";
import { canonicalTimeZone } from "~/lib/time-zones.server";

export const meta: MetaFunction = () => [{ title: "Sign up · Teamboard" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous();
  const query = new URL(request.url).searchParams;
  const next = query.get("next");
  // an invitation's "Sign up" link carries the invited address: the field starts with it, still editable
  const email = query.get("email")?.trim().slice(0, 320) || null;
  return { next: next ? safeRedirect(next) : null, email };
}

export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  if (form.get("intent") === CONFIRM_CODE) return confirmWithCode(form);
  const supabase = requestClient();
  const result = parseForm(SignupSchema, form);
  if (!result.success) return formFailure(result);
  const { email, password, displayName } = result.data;
  const next = safeRedirect(result.data.next);
  // the browser's zone (a hidden field JavaScript fills), else UTC: a sign-up never fails over it
  const timeZone = canonicalTimeZone(result.data.timeZone) ?? "UTC";

  const { data: signUp, error } = await supabase.auth.signUp({
    email,
    password,
    options: {
      data: { display_name: displayName, time_zone: timeZone },
      emailRedirectTo: `${originOf(request)}${next}`,
    },
  });
  if (error) return authFailure(describeAuthError(error), { values: result.values });
  // For an address that is already confirmed, the backend answers with a
  // look-alike user without identities (so addresses can't be probed by API);
  // the form can say so, as docs/product.md §8 asks.
  if (signUp.user && signUp.user.identities?.length === 0) {
    return formFailure({
      errors: { email: MESSAGES.userAlreadyExists },
      values: result.values,
      extra: { code: "user_already_exists" },
    });
  }
  if (signUp.session) throw redirect(next);
  return data({ sent: email, next });
}

const CONFIRM_CODE = "confirm-code";

/**
 * "Or enter the code from the email": the confirmation email's 6-digit code
 * confirms the address and signs in, in any browser (the link's PKCE code
 * only works in the browser that signed up), and lands where the link would.
 */
async function confirmWithCode(form: FormData) {
  const intent = CONFIRM_CODE;
  const sent = String(form.get("email") ?? "");
  const result = parseForm(OtpSchema, form);
  if (!result.success) return formFailure({ intent, ...result, extra: { sent } });
  const failure = await verifyEmailCode(requestClient(), result.data);
  if (failure) return authFailure(failure, { intent, values: result.values, extra: { sent } });
  await setFlash({ kind: "success", message: "You're signed in." });
  throw redirect(safeRedirect(result.data.next));
}

/**
 * Where the confirmation went and where its link leads: after signing up, or
 * when the code form comes back (a wrong code, the backend down).
 */
function sentConfirmation(actionData: unknown): { to: string; next: string | null } | null {
  if (!actionData || typeof actionData !== "object") return null;
  const answer = actionData as {
    sent?: unknown;
    next?: unknown;
    intent?: unknown;
    values?: { email?: unknown; next?: unknown };
  };
  const text = (value: unknown) => (typeof value === "string" && value ? value : null);
  const to = text(answer.sent) ?? (answer.intent === CONFIRM_CODE ? text(answer.values?.email) : null);
  return to ? { to, next: text(answer.next) ?? text(answer.values?.next) } : null;
}

export default function Signup() {
  const { next, email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const sent = sentConfirmation(actionData);
  if (sent) {
    return (
      <div className="auth-page card">
        <h1>Check your email</h1>
        <p role="status">
          We sent a confirmation link and a code to <strong>{sent.to}</strong>. Follow the link to finish signing up;
          both work for an hour.
        </p>
        <ValidatedForm schema="OtpSchema" result={actionData} intent={CONFIRM_CODE}>
          <HiddenNext next={sent.next} />
          <input type="hidden" name="email" value={sent.to} />
          <Field
            name="token"
            label="Or enter the code from the email"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            hint="6 digits; it works in any browser, this one or another."
          />
          <SubmitButton className="button button-block" pendingText="Checking the code…">
            Confirm and sign in
          </SubmitButton>
        </ValidatedForm>
        <p className="muted">
          No email after a minute? Check your spam folder, or <Link to="/signup">try again</Link>.
        </p>
      </div>
    );
  }
  const loginHref = next ? `/login?${new URLSearchParams({ next })}` : "/login";
  return (
    <div className="auth-page">
      <h1>Create your account</h1>
      <p className="lead">
        Already have one? <Link to={loginHref}>Log in</Link>
      </p>
      <div className="card">
        <ValidatedForm schema="SignupSchema" result={actionData}>
          <HiddenNext next={next} />
          <BrowserTimeZone />
          <Field name="displayName" label="Your name" autoComplete="name" maxLength={60} />
          <Field
            name="email"
            label="Email"
            type="email"
            autoComplete="email"
            defaultValue={email ?? undefined}
            after={
              actionData && "code" in actionData && actionData.code === "user_already_exists" ? (
                <p className="field-after">
                  <Link to={loginHref}>Log in instead?</Link>
                </p>
              ) : null
            }
          />
          <Field
            name="password"
            label="Password"
            type="password"
            autoComplete="new-password"
            hint="At least 8 characters, with a letter and a digit."
          />
          <SubmitButton className="button button-block" pendingText="Creating your account…">
            Sign up
          </SubmitButton>
        </ValidatedForm>
      </div>
    </div>
  );
}
