import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Pager } from "~/components/board/pager";
import { ErrorPage } from "~/components/error-page";
import { backendError } from "~/lib/http.server";
import { pageOf, pageRange, parsePage, PROJECTS_PAGE_SIZE } from "~/lib/paging";
import { listProjects } from "~/lib/projects.server";
import { withTeamContext } from "~/lib/team-context.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Projects · ${data.team.name} · Teamboard` : "Projects · Teamboard" },
];

/** Every project of the team, a page at a time: where the sidebar's "All projects" leads once there are more than it lists. */
export async function loader(args: LoaderFunctionArgs) {
  const searchParams = new URL(args.request.url).searchParams;
  const showArchived = searchParams.get("archived") === "1";
  const page = parsePage(searchParams);
  // beside the team's lookup (shared with the layout), not after it
  const {
    team,
    read: { data: rows, error },
  } = await withTeamContext(args, (supabase) =>
    listProjects(supabase, args.params.team!, {
      includeArchived: showArchived,
      ...pageRange(page, PROJECTS_PAGE_SIZE),
    }),
  );
  if (error) throw backendError(error);
  const { items: projects, paging } = pageOf(rows ?? [], page, PROJECTS_PAGE_SIZE);
  return { team: { slug: team.slug, name: team.name }, projects, paging, showArchived };
}

export default function Projects() {
  const { team, projects, paging, showArchived } = useLoaderData<typeof loader>();
  const base = `/teams/${team.slug}`;
  return (
    <section aria-labelledby="projects-title" className="projects-page">
      <h1 id="projects-title">{showArchived ? "All projects" : "Active projects"}</h1>
      {projects.length === 0 ? (
        <p className="muted">
          {paging.hasPrevious ? (
            <>
              No projects on this page.{" "}
              <Link to={`${base}/projects${showArchived ? "?archived=1" : ""}`}>Back to the first page</Link>
            </>
          ) : (
            "No projects yet."
          )}
        </p>
      ) : (
        <ul className="project-list" aria-labelledby="projects-title">
          {projects.map((project) => (
            <li key={project.id}>
              <Link to={`${base}/projects/${project.key}`}>
                <span className="project-key">{project.key}</span> {project.name}
              </Link>
              {project.archived_at ? <span className="muted small"> (archived)</span> : null}
            </li>
          ))}
        </ul>
      )}
      <Pager {...paging} label="Project pages" />
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
