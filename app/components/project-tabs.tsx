import { Link, useLocation } from "@remix-run/react";
import { useContext, type ReactNode } from "react";
import { ShortcutsHelp } from "~/lib/shortcuts";

/**
 * A project's views as tabs (docs/product.md §13): the URL says which. One list,
 * so every view's page shows the same tabs; a view added later goes here.
 * Each tab is also the control of its shortcut (`g b`, `g l`, `g c`: lib/shortcuts.ts).
 */
const VIEWS = [
  { path: "", label: "Board", shortcut: "g b" },
  { path: "/list", label: "List", shortcut: "g l" },
  { path: "/calendar", label: "Calendar", shortcut: "g c" },
] as const;

/**
 * The tabs, carrying the filters the views share (`search`, e.g. `?assignee=me`),
 * with the saved views beside them (`children`) and, with JavaScript, the
 * button that lists the keyboard shortcuts.
 */
export function ProjectTabs({
  basePath,
  search = "",
  children,
}: {
  basePath: string;
  search?: string;
  children?: ReactNode;
}) {
  const { pathname } = useLocation();
  const openHelp = useContext(ShortcutsHelp);
  // the board owns every path under the project that no other view claims (its task panel, new task)
  const currentView =
    VIEWS.find((view) => view.path !== "" && pathname.startsWith(`${basePath}${view.path}`)) ?? VIEWS[0];
  return (
    <div className="project-views">
      <nav className="project-tabs" aria-label="Project views">
        <ul>
          {VIEWS.map((view) => (
            <li key={view.label}>
              <Link
                to={`${basePath}${view.path}${search}`}
                aria-current={view === currentView ? "page" : undefined}
                prefetch="intent"
                data-shortcut={view.shortcut}
              >
                {view.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {children}
      <button type="button" className="link-button needs-js shortcuts-button" onClick={openHelp}>
        Keyboard shortcuts
      </button>
    </div>
  );
}
