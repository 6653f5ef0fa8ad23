import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Pager } from "~/components/board/pager";
import { ErrorPage } from "~/components/error-page";
import { requireUser } from "~/lib/auth.server";
import { backendError } from "~/lib/http.server";
import { requestClient } from "~/lib/supabase.server";
import { parsePage } from "~/lib/paging";
import { ROLE_LABELS } from "~/lib/teams";
import { formatDate } from "~/lib/dates";
import { usePageTime } from "~/lib/use-page-time";
import { listMyInvitations } from "~/lib/invitations.server";
import { listMyTeams } from "~/lib/teams.server";
import boardStyles from "~/styles/board.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: boardStyles }];

export const meta: MetaFunction = () => [{ title: "Your teams · Teamboard" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const supabase = requestClient();
  const user = await requireUser(request);
  const page = parsePage(new URL(request.url).searchParams);
  const [mine, invitations] = await Promise.all([listMyTeams(supabase, user.id, page), listMyInvitations(supabase)]);
  if (mine.error) throw backendError(mine.error);
  if (invitations.error) throw backendError(invitations.error);
  return { teams: mine.items, paging: mine.paging, invitations: invitations.items };
}

export default function Teams() {
  const { teams, paging, invitations } = useLoaderData<typeof loader>();
  const { zone } = usePageTime();
  return (
    <div className="teams-page">
      <div className="page-heading">
        <h1 id="teams-title">Your teams</h1>
        <Link to="/teams/new" className="button">
          Create a team
        </Link>
      </div>
      {teams.length === 0 && paging.hasPrevious ? (
        <p className="card">
          No teams on this page. <Link to="/teams">Back to the first page</Link>
        </p>
      ) : teams.length === 0 ? (
        <p className="card">You're not in a team yet. Create one, or open the invitation link a teammate sent you.</p>
      ) : (
        <ul className="team-list" aria-labelledby="teams-title">
          {teams.map(({ team, role }) => (
            <li key={team.id} className="card team-list-item">
              <Link to={`/teams/${team.slug}`} className="team-list-name">
                {team.name}
              </Link>
              <span className="role-badge">{ROLE_LABELS[role]}</span>
            </li>
          ))}
        </ul>
      )}
      <Pager {...paging} label="Team pages" />
      <section aria-labelledby="invitations-title" className="invitations">
        <h2 id="invitations-title">Pending invitations</h2>
        {invitations.length === 0 ? (
          <p className="muted">No pending invitations.</p>
        ) : (
          <ul>
            {invitations.map((invitation) => (
              <li key={invitation.id} data-invitation-team={invitation.teamName}>
                <strong>{invitation.teamName}</strong>: {invitation.inviterName ?? "Someone"} invited you as{" "}
                {ROLE_LABELS[invitation.role].toLowerCase()}, valid until{" "}
                <time dateTime={invitation.expiresAt}>{formatDate(invitation.expiresAt, zone)}</time>. Open the link in
                the email to accept or decline it.
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
