import { renderToStaticMarkup } from "react-dom/server";
import { taskRef } from "~/lib/board";
import type { SharedBoard } from "~/lib/share-links.server";
import appStyles from "~/styles/app.css?url";
import boardStyles from "~/styles/board.css?url";
import darkStyles from "~/styles/dark.css?url";
import sharedStyles from "~/styles/shared.css?url";

/**
 * The page of a public read-only link (routes/shared.$secret.tsx), printed
 * whole on the server: no script, nothing for the browser to hydrate, so
 * react-dom/server stays out of the browser's modules.
 */
export function sharedPageHtml(board: SharedBoard): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(<SharedPage board={board} />)}`;
}

function SharedPage({ board }: { board: SharedBoard }) {
  const { project, view } = board;
  const title = `${project.name}${view ? `: ${view}` : ""}`;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="no-referrer" />
        <meta name="color-scheme" content="light dark" />
        <title>{`${title} · Teamboard`}</title>
        <link rel="stylesheet" href={appStyles} />
        <link rel="stylesheet" href={boardStyles} />
        <link rel="stylesheet" href={sharedStyles} />
        <link rel="stylesheet" href={darkStyles} media="(prefers-color-scheme: dark)" />
      </head>
      <body>
        <main className="shared-page">
          <header className="shared-header">
            <h1>
              <span className="project-key">{project.key}</span> {title}
            </h1>
            <p className="muted">A read-only board shared from Teamboard.</p>
          </header>
          <div className="board">
            {board.statuses.map((status) => (
              <section
                key={status.name}
                className={`board-column color-${status.color}`}
                aria-label={`${status.name}, ${status.total} ${status.total === 1 ? "task" : "tasks"}`}
              >
                <h2 className="column-heading">
                  <span className="column-swatch" aria-hidden="true" />
                  <span className="column-name">{status.name}</span>{" "}
                  <span className="column-count">{status.total}</span>
                </h2>
                <ol className="card-list">
                  {status.tasks.map((task) => (
                    <li key={task.number} className="task-card">
                      <p className="shared-card-title">
                        <span className="task-ref">{taskRef(project.key, task.number)}</span>{" "}
                        <span className="task-card-title">{task.title}</span>
                      </p>
                      {task.labels.length > 0 ? (
                        <ul className="labels" aria-label="Labels">
                          {task.labels.map((label) => (
                            <li key={label.name} className={`label color-${label.color}`}>
                              {label.name}
                            </li>
                          ))}
                        </ul>
                      ) : null}
                      {task.fields.some((f) => f.value) ? (
                        <dl className="shared-fields">
                          {task.fields
                            .filter((f) => f.value)
                            .map((f) => (
                              <div key={f.name}>
                                <dt>{f.name}</dt>
                                <dd>{f.value}</dd>
                              </div>
                            ))}
                        </dl>
                      ) : null}
                      {task.comments && task.comments.length > 0 ? (
                        <details className="shared-comments">
                          <summary>
                            {task.comments.length} {task.comments.length === 1 ? "comment" : "comments"}
                          </summary>
                          <ol>
                            {task.comments.map((c, i) => (
                              <li key={i}>
                                <p className="muted">
                                  {c.author}, <time dateTime={c.created_at}>{c.created_at.slice(0, 10)}</time>
                                </p>
                                <p className="shared-comment-body">{c.body}</p>
                              </li>
                            ))}
                          </ol>
                        </details>
                      ) : null}
                    </li>
                  ))}
                </ol>
                {status.total > status.tasks.length ? (
                  <p className="muted">
                    The first {status.tasks.length} of {status.total} are shown.
                  </p>
                ) : null}
              </section>
            ))}
          </div>
        </main>
      </body>
    </html>
  );
}
