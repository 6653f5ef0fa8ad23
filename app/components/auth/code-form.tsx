import { Link } from "@remix-run/react";
import { Field, HiddenNext, SubmitButton, ValidatedForm } from "~/components/form";

/** Where the 6-digit code form posts: a route of its own (/login/code). */
export const CODE_ACTION = "/login/code";

/**
 * "Enter your code": shown by /login once a code is emailed, and by
 * /login/code when a code comes back refused.
 */
export function CodeForm({
  sentTo,
  next,
  result,
}: {
  sentTo: string;
  next: string | null | undefined;
  result?: unknown;
}) {
  return (
    <div className="auth-page">
      <h1>Enter your code</h1>
      <p className="lead" role="status">
        We emailed a 6-digit code to <strong>{sentTo}</strong>. It works for an hour.
      </p>
      <div className="card">
        <ValidatedForm schema="OtpSchema" action={CODE_ACTION} result={result} intent="verify-code">
          <HiddenNext next={next} />
          <input type="hidden" name="email" value={sentTo} />
          <Field name="token" label="Code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus />
          <SubmitButton className="button button-block">Log in</SubmitButton>
        </ValidatedForm>
        <p className="muted">
          Wrong address or no email?{" "}
          <Link to={next ? `/login?${new URLSearchParams({ next })}` : "/login"}>Start again</Link>
        </p>
      </div>
    </div>
  );
}
