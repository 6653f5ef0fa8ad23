import { useRouteLoaderData } from "@remix-run/react";
import { useLiveData, usePresence, type ShownIds } from "~/lib/live";
import type { RootData } from "~/root";

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? parts[0][0] + parts[parts.length - 1][0] : (parts[0] ?? "?").slice(0, 2);
  return letters.toUpperCase();
}

/**
 * "Also viewing: …" — the other people who have this task open right now
 * (presence), named from the team's member list: someone who is not on it is
 * not shown, whatever their client claims.
 */
export function AlsoViewing({ taskId, members }: { taskId: string; members: readonly { id: string; name: string }[] }) {
  const root = useRouteLoaderData("root") as RootData | undefined;
  const ids = usePresence(`task:${taskId}`, root?.user?.id ?? null);
  const others = ids
    .map((id) => members.find((m) => m.id === id))
    .filter((m) => m !== undefined)
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <p className="also-viewing small" aria-live="polite" hidden={others.length === 0}>
      {others.length > 0 ? (
        <>
          <span className="muted">Also viewing:</span>{" "}
          {others.map((o) => (
            <span key={o.id} className="avatar" title={o.name}>
              <span aria-hidden="true">{initials(o.name)}</span>
              <span className="visually-hidden">{o.name}</span>
            </span>
          ))}
        </>
      ) : null}
    </p>
  );
}

/**
 * Others' comments and attachments on this task show without a reload (the
 * task itself: the board's subscription); the timeline's events come with
 * those changes, read again with them.
 */
export function LiveTaskData({ taskId, shown }: { taskId: string; shown: ShownIds }) {
  useLiveData(
    "task",
    [
      { table: "comments", filter: `task_id=eq.${taskId}` },
      { table: "attachments", filter: `task_id=eq.${taskId}` },
    ],
    shown,
  );
  return null;
}
