import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Link,
  NavLink,
  Outlet,
  useLoaderData,
  useLocation,
  useNavigation,
  useSearchParams,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Fold, FoldLabel } from "~/components/fold";
import { PendingNotice } from "~/components/board/pending";
import { backendError } from "~/lib/http.server";
import { SIDEBAR_PROJECTS } from "~/lib/paging";
import { permissionsOf } from "~/lib/permissions";
import { listProjects } from "~/lib/projects.server";
import { withTeamContext } from "~/lib/team-context.server";
import { ROLE_LABELS } from "~/lib/teams";
import boardStyles from "~/styles/board.css?url";
import { formWasRejected } from "~/lib/revalidation";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: boardStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.team.name} · Teamboard` : "Teamboard" },
];

export async function loader(args: LoaderFunctionArgs) {
  const showArchived = new URL(args.request.url).searchParams.get("archived") === "1";
  // the team (shared with the page inside) and the sidebar's projects, side by side;
  // bounded: the first SIDEBAR_PROJECTS, and one more to know whether to link to the rest
  const {
    team,
    read: { data: projects, error },
  } = await withTeamContext(args, (supabase) =>
    listProjects(supabase, args.params.team!, { includeArchived: showArchived, from: 0, to: SIDEBAR_PROJECTS }),
  );
  if (error) throw backendError(error);
  const rows = projects ?? [];
  return {
    team,
    projects: rows.slice(0, SIDEBAR_PROJECTS),
    moreProjects: rows.length > SIDEBAR_PROJECTS,
    showArchived,
    can: permissionsOf(team.role),
  };
}

/**
 * The sidebar reloads when the team, the archived toggle or anything through a
 * form changes — not for the board's filters or opening a task, which would
 * cost a backend round trip for a list that didn't move.
 */
export const shouldRevalidate: ShouldRevalidateFunction = (args) => {
  const { currentUrl, nextUrl, currentParams, nextParams, formMethod, formAction, formData, defaultShouldRevalidate } =
    args;
  if (formWasRejected(args)) return false;
  if (formMethod && formMethod !== "GET") {
    // work on tasks and comments leaves the project list as it was; archiving doesn't
    const intent = String(formData?.get("intent") ?? "");
    if (
      formAction?.includes("/projects/") &&
      !formAction.endsWith("/projects/new") &&
      intent !== "archive" &&
      intent !== "unarchive"
    )
      return false;
    return defaultShouldRevalidate;
  }
  if (currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
  if (currentParams.team !== nextParams.team) return true;
  return currentUrl.searchParams.get("archived") !== nextUrl.searchParams.get("archived");
};

/** The part of a team URL that picks what the main area shows: /teams/acme/members, /teams/acme/projects/WEB… */
function sectionOf(pathname: string) {
  return pathname.replace(/\/+$/, "").split("/").slice(0, 5).join("/");
}

/** Where in the team this page is, for the folded menu's button: "Members", a project's name… */
function placeName(pathname: string, base: string, projects: Array<{ key: string; name: string }>) {
  const [section, key] = pathname.slice(base.length).split("/").filter(Boolean);
  if (!section) return "Overview";
  if (section === "members") return "Members";
  if (section === "labels") return "Labels";
  if (section === "settings") return "Settings";
  if (section === "projects" && !key) return "All projects";
  if (section === "projects" && key === "new") return "New project";
  if (section === "projects") return projects.find((p) => p.key === key)?.name ?? key;
  return null;
}

export default function TeamLayout() {
  const { team, projects, moreProjects, showArchived, can } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const base = `/teams/${team.slug}`;
  const target = navigation.location?.pathname;
  const pending =
    navigation.state !== "idle" &&
    !!target &&
    target.startsWith(base) &&
    sectionOf(target) !== sectionOf(location.pathname);
  const archivedToggle = new URLSearchParams(searchParams);
  if (showArchived) archivedToggle.delete("archived");
  else archivedToggle.set("archived", "1");

  return (
    <div className="team-shell">
      <aside className="team-sidebar" aria-label={`${team.name} navigation`} data-team-sidebar>
        <Fold
          className="team-menu"
          summary={
            <FoldLabel title={team.name} place={placeName(location.pathname, base, projects)} action="Team menu" />
          }
        >
          <p className="team-sidebar-name">
            <Link to={base}>{team.name}</Link>
            <span className="role-badge">{ROLE_LABELS[team.role]}</span>
          </p>
          <nav aria-label="Team">
            <ul>
              <li>
                <NavLink to={base} end>
                  Overview
                </NavLink>
              </li>
              <li>
                <NavLink to={`${base}/activity`}>Activity</NavLink>
              </li>
              <li>
                <NavLink to={`${base}/members`}>Members</NavLink>
              </li>
              {can.seeTeam ? (
                <li>
                  <NavLink to={`${base}/labels`}>Labels</NavLink>
                </li>
              ) : null}
              {can.renameTeam ? (
                <li>
                  <NavLink to={`${base}/settings`}>Settings</NavLink>
                </li>
              ) : null}
            </ul>
          </nav>
          <nav aria-labelledby="projects-heading">
            <h2 id="projects-heading" className="sidebar-heading">
              Projects
            </h2>
            {projects.length === 0 ? <p className="muted small">No projects yet.</p> : null}
            <ul>
              {projects.map((project) => (
                <li key={project.id}>
                  <NavLink to={`${base}/projects/${project.key}`}>
                    <span className="project-key">{project.key}</span> {project.name}
                    {project.archived_at ? <span className="muted small"> (archived)</span> : null}
                  </NavLink>
                </li>
              ))}
            </ul>
            {moreProjects ? (
              <p className="small">
                <NavLink to={`${base}/projects${showArchived ? "?archived=1" : ""}`} end>
                  All projects
                </NavLink>
              </p>
            ) : null}
            <p className="small">
              <Link to={{ search: `?${archivedToggle}` }} preventScrollReset>
                {showArchived ? "Hide archived projects" : "Show archived projects"}
              </Link>
            </p>
            {can.manageProjects ? (
              <p>
                <Link to={`${base}/projects/new`} className="button button-small button-secondary">
                  New project
                </Link>
              </p>
            ) : null}
          </nav>
        </Fold>
      </aside>
      <div className="team-content" aria-busy={pending || undefined}>
        <PendingNotice pending={pending} />
        <Outlet />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
