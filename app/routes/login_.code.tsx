import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { CodeForm } from "~/components/auth/code-form";
import { signedOutPage } from "~/lib/auth.server";
import { authFailure, formFailure } from "~/lib/forms.server";
import { keepingTheForm, redirect } from "~/lib/http.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { OtpSchema, parseForm } from "~/lib/schemas";
import { verifyEmailCode } from "~/lib/sign-in.server";
import { requestClient } from "~/lib/supabase.server";

/**
 * POST /login/code: the emailed 6-digit code, verified. /login shows the form
 * once the code is sent; a refused code comes back here, on the same form.
 * (`login_`: a page of its own, not nested inside the log-in page.)
 */
export const meta: MetaFunction = () => [{ title: "Enter your code · Teamboard" }];

export const loader = signedOutPage;

export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  const form = await request.formData();
  const intent = "verify-code" as const;
  const result = parseForm(OtpSchema, form);
  if (!result.success) return formFailure({ intent, ...result, extra: { sent: String(form.get("email") ?? "") } });
  const failure = await verifyEmailCode(supabase, result.data);
  if (failure) return authFailure(failure, { intent, values: result.values, extra: { sent: result.data.email } });
  throw redirect(safeRedirect(result.data.next));
}

export default function LoginCode() {
  const result = useActionData<typeof action>();
  const sentTo = result && "sent" in result && typeof result.sent === "string" && result.sent ? result.sent : null;
  if (!sentTo) {
    return (
      <div className="auth-page">
        <h1>Enter your code</h1>
        <p className="lead">
          Ask for a code on the <Link to="/login">log-in page</Link> first.
        </p>
      </div>
    );
  }
  return <CodeForm sentTo={sentTo} next={result?.values.next} result={result} />;
}
