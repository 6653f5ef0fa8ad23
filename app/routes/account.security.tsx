import { Fragment } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, FormAlert, SubmitButton, ValidatedForm } from "~/components/form";
import { requireUser } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { authFailure, formFailure } from "~/lib/forms.server";
import {
  checkPassword,
  enrolmentFromForm,
  failurePage,
  listTotpFactors,
  needsPasswordToEnrol,
  removeFactor,
  startEnrolment,
  verifyTotp,
  type Enrolment,
} from "~/lib/mfa.server";
import { backendError, keepingTheForm, redirect } from "~/lib/http.server";
import { makeRecoveryCodes, recoveryCodesLeft } from "~/lib/recovery-codes.server";
import { parseIntent, SecurityActionSchema, submittedValues } from "~/lib/schemas";
import { requestClient } from "~/lib/supabase.server";
import { formatDate, formatDateTime } from "~/lib/dates";
import { usePageTime } from "~/lib/use-page-time";

/**
 * /account/security: two-factor sign-in with an authenticator app. Adding
 * one takes two posts (start: the server asks the backend for a secret and
 * shows its QR code and the secret as text; confirm: a code from the app),
 * so it works without JavaScript. The first app needs the password again
 * unless the session signed in minutes ago (needsPasswordToEnrol). Turning
 * it on shows ten recovery codes, once; they can be made again here. The
 * page itself needs aal2 once an app is confirmed, like every account page
 * (requireUser).
 */
interface SecurityEvent {
  id: number;
  kind: "api_token_created" | "api_token_used" | "api_token_revoked";
  detail: string;
  created_at: string;
}

/** The security log's lines, in words (security_events, 20261207000700_api_tokens.sql). */
const EVENT_WORDS: Record<SecurityEvent["kind"], string> = {
  api_token_created: "API token made",
  api_token_used: "API token used",
  api_token_revoked: "API token revoked",
};

export const meta: MetaFunction = () => [{ title: "Two-factor sign-in · Teamboard" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const supabase = requestClient();
  const user = await requireUser(request);
  const factors = await listTotpFactors(supabase);
  if ("status" in factors) throw failurePage(factors);
  const codesLeft = factors.verified.length > 0 ? await recoveryCodesLeft(supabase) : null;
  const log = await supabase
    .from("security_events")
    .select("id, kind, detail, created_at")
    .order("id", { ascending: false })
    .limit(50)
    .returns<SecurityEvent[]>();
  if (log.error) throw backendError(log.error);
  return {
    factors: factors.verified,
    codesLeft,
    log: log.data,
    passwordNeeded: needsPasswordToEnrol(user, factors.verified.length),
  };
}

export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  const user = await requireUser(request);
  const form = await request.formData();
  const parsed = parseIntent(SecurityActionSchema, form);
  if (!parsed) return formFailure({ errors: { form: "Unknown action." }, values: submittedValues(form) });

  switch (parsed.intent) {
    case "enroll": {
      if (!parsed.success) return formFailure(parsed);
      const factors = await listTotpFactors(supabase);
      if ("status" in factors) return authFailure(factors, parsed);
      if (needsPasswordToEnrol(user, factors.verified.length)) {
        const failure = parsed.data.password
          ? await checkPassword(user.email, parsed.data.password)
          : { status: 400 as const, field: "password", message: "Enter your password to turn this on.", code: "" };
        if (failure) return authFailure(failure, parsed);
      }
      const enrolment = await startEnrolment(supabase, parsed.data.friendlyName, factors);
      if ("status" in enrolment) return authFailure(enrolment, { intent: parsed.intent, values: parsed.values });
      return data({ intent: parsed.intent, enrolment });
    }
    case "confirm": {
      // the QR code and secret travel in the form so a wrong code can show them again
      const factorId = typeof form.get("factorId") === "string" ? String(form.get("factorId")) : "";
      const enrolment = enrolmentFromForm(form, factorId);
      const { code: _code, qrCode: _qr, secret: _secret, ...values } = parsed.values;
      if (!parsed.success) return formFailure({ ...parsed, values, extra: { enrolment } });
      const failure = await verifyTotp(supabase, parsed.data.factorId, parsed.data.code);
      if (failure) return authFailure(failure, { intent: parsed.intent, values, extra: { enrolment } });
      // the session is at aal2 now; an account without unused recovery codes gets ten, shown once
      if ((await recoveryCodesLeft(supabase)) === 0) {
        const made = await makeRecoveryCodes(supabase);
        if ("codes" in made) return data({ intent: "confirm" as const, recoveryCodes: made.codes });
      }
      await setFlash({ kind: "success", message: TURNED_ON });
      throw redirect("/account/security");
    }
    case "codes": {
      const made = await makeRecoveryCodes(supabase);
      if ("failure" in made) return authFailure(made.failure, { intent: parsed.intent, values: {} });
      return data({ intent: "codes" as const, recoveryCodes: made.codes });
    }
    case "remove": {
      if (!parsed.success) return formFailure(parsed);
      const failure = await removeFactor(supabase, parsed.data.factorId);
      if (failure) return authFailure(failure, { intent: parsed.intent, values: parsed.values });
      await setFlash({ kind: "success", message: "The authenticator app is removed." });
      throw redirect("/account/security");
    }
  }
}

const TURNED_ON = "Two-factor sign-in is on: signing in now asks for a code from your authenticator app.";

export default function Security() {
  const { factors, codesLeft, passwordNeeded, log } = useLoaderData<typeof loader>();
  const { zone } = usePageTime();
  const result = useActionData<typeof action>();
  const recoveryCodes = result && "recoveryCodes" in result ? result.recoveryCodes : null;
  const enrolment: Enrolment | null =
    result && "enrolment" in result && result.enrolment ? (result.enrolment as Enrolment) : null;
  const removeError = result?.intent === "remove" && "errors" in result ? result.errors.form : undefined;
  const codesError = result?.intent === "codes" && "errors" in result ? result.errors.form : undefined;
  return (
    <section className="card" aria-labelledby="security-title">
      <h1 id="security-title">Two-factor sign-in</h1>
      <p>
        With an authenticator app (1Password, Google Authenticator, Authy and the like), signing in asks for a 6-digit
        code from your phone after your password, email link or code.
      </p>
      {factors.length > 0 ? (
        <>
          <h2>Your authenticator apps</h2>
          {removeError ? <FormAlert autoFocus>{removeError}</FormAlert> : null}
          <ul className="factor-list">
            {factors.map((factor) => (
              <li key={factor.id}>
                <span>
                  {factor.name}{" "}
                  <span className="muted">
                    added <time dateTime={factor.createdAt}>{formatDate(factor.createdAt, zone)}</time>
                  </span>
                </span>
                <Form method="post">
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="factorId" value={factor.id} />
                  <button
                    type="submit"
                    className="button button-danger button-small"
                    aria-label={`Remove ${factor.name}`}
                  >
                    Remove
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="muted">Two-factor sign-in is off.</p>
      )}

      {recoveryCodes ? <NewRecoveryCodes codes={recoveryCodes} turnedOn={result?.intent === "confirm"} /> : null}
      {factors.length > 0 ? (
        <div className="recovery-codes">
          <h2>Recovery codes</h2>
          {codesError ? <FormAlert autoFocus>{codesError}</FormAlert> : null}
          <p>
            {codesLeft === null ? "" : `${codesLeft} of 10 recovery codes left. `}
            Each one signs you in once if you lose your phone. Making new ones replaces them all.
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="codes" />
            <button type="submit" className="button button-secondary">
              Make new recovery codes
            </button>
          </Form>
        </div>
      ) : null}

      {enrolment ? (
        <div className="enrolment">
          <h2>Add an authenticator app</h2>
          <ol>
            <li>
              Scan this QR code with the app:
              <img
                className="qr-code"
                src={enrolment.qrCode}
                alt="QR code for the authenticator app"
                width={180}
                height={180}
              />
            </li>
            <li>
              Or type this key into it: <code className="totp-secret">{groupsOfFour(enrolment.secret)}</code>
            </li>
            <li>Enter the 6-digit code the app shows for Teamboard.</li>
          </ol>
          <ValidatedForm schema="ConfirmFactorSchema" result={result} intent="confirm">
            <input type="hidden" name="factorId" value={enrolment.factorId} />
            <input type="hidden" name="qrCode" value={enrolment.qrCode} />
            <input type="hidden" name="secret" value={enrolment.secret} />
            <Field
              name="code"
              label="Code from the app"
              inputMode="numeric"
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={7}
              autoFocus
            />
            <SubmitButton className="button" pendingText="Checking…">
              Turn on two-factor sign-in
            </SubmitButton>
          </ValidatedForm>
        </div>
      ) : (
        <ValidatedForm schema="FactorNameSchema" result={result} intent="enroll">
          <h2>{factors.length > 0 ? "Add another authenticator app" : "Add an authenticator app"}</h2>
          <Field
            name="friendlyName"
            label="Name (optional)"
            hint="To tell your apps apart, like “Work phone”."
            maxLength={60}
          />
          {passwordNeeded ? (
            <Field
              name="password"
              type="password"
              label="Your password"
              autoComplete="current-password"
              hint="Turning this on changes how you sign in, so we ask again. No password (you sign in with a link or code)? Log out and sign in again, then add the app within 10 minutes."
            />
          ) : null}
          <SubmitButton className="button button-secondary" pendingText="Preparing…">
            Set up an authenticator app
          </SubmitButton>
        </ValidatedForm>
      )}

      <h2 id="security-log">Security log</h2>
      {log.length === 0 ? (
        <p className="muted">Nothing yet: API tokens made, used (at most once an hour each) and revoked show here.</p>
      ) : (
        <ul className="security-log" aria-labelledby="security-log">
          {log.map((event) => (
            <li key={event.id}>
              <time dateTime={event.created_at}>{formatDateTime(event.created_at, zone)}</time>{" "}
              {EVENT_WORDS[event.kind] ?? event.kind} {event.detail}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The codes just made: shown this once (they are stored only as hashes). */
function NewRecoveryCodes({ codes, turnedOn }: { codes: string[]; turnedOn: boolean }) {
  return (
    <div className="new-recovery-codes" role="status">
      {turnedOn ? <p className="alert alert-success">{TURNED_ON}</p> : null}
      <h2>Save your recovery codes</h2>
      <p>
        If you lose your phone, each of these signs you in once instead of a code from the app. Keep them somewhere
        safe, like a password manager or on paper: this is the only time they are shown.
      </p>
      <ol className="code-list">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}

/** "ABCDEFGH…" as "ABCD EFGH …": read and typed in groups, a line breaks only between them. */
function groupsOfFour(key: string) {
  const groups = key.match(/.{1,4}/g) ?? [];
  // the spaces sit between the groups (a line may break there), never inside one
  return groups.map((group, i) => (
    <Fragment key={i}>
      {i > 0 ? " " : null}
      <span>{group}</span>
    </Fragment>
  ));
}
