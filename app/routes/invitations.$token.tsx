import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { FormAlert, SubmitButton } from "~/components/form";
import { getUser, needsSecondFactor, secondFactorUrl } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { backendError, keepingTheForm, notFound, redirect } from "~/lib/http.server";
import { formatDate, type ZoneTable } from "~/lib/dates";
import { usePageTime } from "~/lib/use-page-time";
import {
  acceptInvitation,
  declineInvitation,
  previewInvitation,
  type InvitationPreview,
} from "~/lib/invitations.server";
import { requestClient } from "~/lib/supabase.server";
import { classifyDbError } from "~/lib/db-errors.server";
import { ROLE_LABELS } from "~/lib/teams";
import { WithDates } from "~/components/day";

/**
 * /invitations/:token, the link in an invitation email (docs/product.md §2, §4).
 * Anyone holding the link sees the team, who invited and the role; signed out
 * → log in or sign up first and come back here; signed in as the invited
 * address → accept or decline; as someone else → says so, offers to sign out.
 * Expired, withdrawn and used links say which.
 */
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.invitation ? `Join ${data.invitation.teamName} · Teamboard` : "Invitation · Teamboard" },
  // the token is in the address: never hand it to other sites (same-origin still sends Origin on our own form posts)
  { name: "referrer", content: "same-origin" },
];

const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

async function load(token: string | undefined) {
  const supabase = requestClient();
  const [user, { preview, error }] = await Promise.all([
    getUser(),
    token && TOKEN.test(token) ? previewInvitation(supabase, token) : { preview: null, error: null },
  ]);
  if (error) throw backendError(error);
  return { supabase, user, preview };
}

export async function loader({ params }: LoaderFunctionArgs) {
  const { user, preview } = await load(params.token);
  return data(
    {
      invitation: preview,
      here: `/invitations/${params.token}`,
      signedInAs: user?.email ?? null,
      forMe: !!user && !!preview && user.email.toLowerCase() === preview.email.toLowerCase(),
    },
    // an unknown token is a page of its own (what to do next), with 404
    { status: preview ? 200 : 404 },
  );
}

export const action = keepingTheForm(submit);

async function submit({ request, params }: ActionFunctionArgs) {
  const { supabase, user, preview } = await load(params.token);
  if (!preview) throw notFound();
  const here = `/invitations/${params.token}`;
  if (!user) throw redirect(`/login?${new URLSearchParams({ next: here })}`);
  // accepting or declining acts for the account: the second factor first, when it has one
  if (needsSecondFactor(user)) throw redirect(secondFactorUrl(here));
  const intent = String((await request.formData()).get("intent") ?? "");
  if (user.email.toLowerCase() !== preview.email.toLowerCase()) {
    return data({ error: `This invitation is for ${preview.email}.` }, { status: 403 });
  }
  if (intent === "accept") {
    const { data: team, error } = await acceptInvitation(supabase, params.token!);
    if (error) return refusal(error);
    await setFlash({
      kind: "success",
      message: `Welcome to ${team.name}! You joined as ${ROLE_LABELS[preview.role].toLowerCase()}.`,
    });
    throw redirect(`/teams/${team.slug}`);
  }
  if (intent === "decline") {
    const { error } = await declineInvitation(supabase, params.token!);
    if (error) return refusal(error);
    await setFlash({
      kind: "info",
      message: `You declined the invitation to ${preview.teamName}.`,
    });
    throw redirect("/teams");
  }
  throw notFound();
}

function refusal(error: { code?: string; message?: string }) {
  const { status, message } = classifyDbError(error);
  if (status === 404) throw notFound();
  if (status === 500 || status === 503) throw backendError(error);
  return data({ error: message }, { status });
}

const ENDED: Record<
  Exclude<InvitationPreview["status"], "pending">,
  (i: InvitationPreview, zone: ZoneTable) => string
> = {
  accepted: () => "This invitation was already used.",
  revoked: () => "This invitation was withdrawn.",
  expired: (i, zone) =>
    `This invitation expired on ${formatDate(i.expiresAt, zone)}. Ask ${i.inviterName ?? "the team's admins"} for a new one.`,
};

export default function Invitation() {
  const { invitation, here, signedInAs, forMe } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { zone } = usePageTime();
  const signUp = `/signup?${new URLSearchParams({ next: here, email: invitation?.email ?? "" })}`;
  if (!invitation) {
    return (
      <div className="auth-page">
        <h1>Invitation</h1>
        <div className="card">
          <p role="alert" className="alert alert-error" data-invitation-state="invalid">
            This invitation link is not valid. Check that you opened the whole link from the email, or ask for a new
            invitation.
          </p>
          <p>
            <Link to={signedInAs ? "/teams" : "/"}>{signedInAs ? "Go to your teams" : "Go to the start page"}</Link>
          </p>
        </div>
      </div>
    );
  }
  const role = ROLE_LABELS[invitation.role].toLowerCase();
  return (
    <div className="auth-page">
      <h1>Join {invitation.teamName}</h1>
      <div className="card">
        <p className="lead">
          {invitation.inviterName ?? "Someone"} invited <strong>{invitation.email}</strong> to join the team{" "}
          <strong>{invitation.teamName}</strong> as {role === "admin" ? "an" : "a"} {role}.
        </p>
        {invitation.status !== "pending" ? (
          <>
            <p role="alert" className="alert alert-error" data-invitation-state={invitation.status}>
              <WithDates text={ENDED[invitation.status](invitation, zone)} />
            </p>
            <p>
              <Link to="/teams">Go to your teams</Link>
            </p>
          </>
        ) : !signedInAs ? (
          <>
            <p>
              {invitation.hasAccount
                ? `Log in as ${invitation.email} to accept it.`
                : `Create an account with ${invitation.email} to accept it.`}{" "}
              You'll come back here.
            </p>
            {/* the way in the address needs first (in reading and tab order), the other one quiet */}
            <p className="actions">
              {invitation.hasAccount ? (
                <>
                  <Link className="button" to={`/login?${new URLSearchParams({ next: here })}`}>
                    Log in
                  </Link>{" "}
                  <Link className="button button-secondary" to={signUp}>
                    Sign up
                  </Link>
                </>
              ) : (
                <>
                  <Link className="button" to={signUp}>
                    Sign up
                  </Link>{" "}
                  <Link className="button button-secondary" to={`/login?${new URLSearchParams({ next: here })}`}>
                    Log in
                  </Link>
                </>
              )}
            </p>
          </>
        ) : !forMe ? (
          <>
            <p role="alert" className="alert alert-error">
              This invitation is for {invitation.email}, but you're logged in as {signedInAs}.
            </p>
            <Form method="post" action="/logout">
              <input type="hidden" name="next" value={here} />
              <button type="submit" className="button">
                Log out and continue as {invitation.email}
              </button>
            </Form>
          </>
        ) : (
          <>
            {result && "error" in result ? <FormAlert autoFocus>{result.error}</FormAlert> : null}
            <p className="muted small">
              The invitation is valid until{" "}
              <time dateTime={invitation.expiresAt}>{formatDate(invitation.expiresAt, zone)}</time>.
            </p>
            <Form method="post" className="actions">
              <SubmitButton name="intent" value="accept" pendingText="Joining…">
                Accept and join {invitation.teamName}
              </SubmitButton>{" "}
              <button type="submit" name="intent" value="decline" className="button button-secondary">
                Decline
              </button>
            </Form>
          </>
        )}
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
