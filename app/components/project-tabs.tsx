import { Link, useLocation } from "@remix-run/react";

/**
 * A project's views as tabs (PRODUCT.md §13): the URL says which. One list,
 * so every view's page shows the same tabs; a view added later goes here.
 */
const VIEWS = [
  { path: "", label: "Board" },
  { path: "/calendar", label: "Calendar" },
] as const;

export function ProjectTabs({ basePath }: { basePath: string }) {
  const { pathname } = useLocation();
  // the board owns every path under the project that no other view claims (its task panel, new task)
  const currentView =
    VIEWS.find((view) => view.path !== "" && pathname.startsWith(`${basePath}${view.path}`)) ?? VIEWS[0];
  return (
    <nav className="project-tabs" aria-label="Project views">
      <ul>
        {VIEWS.map((view) => (
          <li key={view.label}>
            <Link
              to={`${basePath}${view.path}`}
              aria-current={view === currentView ? "page" : undefined}
              prefetch="intent"
            >
              {view.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
