import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import type { Permissions } from "~/lib/permissions";

/**
 * The top of every view of a project (board, list, calendar): its key, name and
 * description, and what may be done with it (export, a new task, its
 * archived tasks, its trash and settings for admins, where they also archive it).
 */
export function ProjectHeader({
  project,
  basePath,
  search,
  can,
  extra,
}: {
  project: { key: string; name: string; description: string; archived: boolean };
  basePath: string;
  /** carried into "New task" so the board behind it keeps its filters */
  search: string;
  can: Pick<Permissions, "editTasks" | "manageProjects">;
  /** a view's own action at the end of the row (the board's "?") */
  extra?: ReactNode;
}) {
  return (
    <div className="board-header">
      <div>
        <h1>
          <span className="project-key">{project.key}</span> {project.name}
          {project.archived ? <span className="archived-badge">Archived</span> : null}
        </h1>
        {project.description ? <p className="muted plain-text">{project.description}</p> : null}
      </div>
      <div className="board-actions">
        {/* a plain download (no client routing), so it works without JavaScript too */}
        <a href={`${basePath}/export`} className="button button-small button-secondary export-in-row" download>
          Export CSV
        </a>
        {can.editTasks ? (
          <Link to={`${basePath}/tasks/new${search}`} className="button button-small" data-shortcut="c">
            New task
          </Link>
        ) : null}
        {/* rarely visited: behind "More", so the row stays one line on a phone (a <details>: no script needed) */}
        <details className="board-more project-more">
          <summary className="button button-small button-secondary">More</summary>
          <ul className="board-more-menu project-more-menu">
            {/* on a phone the export moves in here, so the row stays one line */}
            <li className="export-in-more">
              <a href={`${basePath}/export`} download>
                Export CSV
              </a>
            </li>
            <li>
              <Link to={`${basePath}/archived`}>Archived tasks</Link>
            </li>
            {can.manageProjects ? (
              <li>
                <Link to={`${basePath}/trash`}>Trash</Link>
              </li>
            ) : null}
          </ul>
        </details>
        {can.manageProjects ? (
          <Link to={`${basePath}/settings`} className="button button-small button-secondary">
            Project settings
          </Link>
        ) : null}
        {extra}
      </div>
    </div>
  );
}
