import { Link, useFetcher, useRouteLoaderData } from "@remix-run/react";
import type { RealtimeChannel, RealtimeClient } from "@supabase/realtime-js";
import { useEffect, useRef, useState } from "react";
import { withSessionToken } from "~/lib/browser-auth";
import { unreadLabel } from "~/lib/notifications";
import type { RootData } from "~/root";

/**
 * The header's bell (docs/product.md §10): a link to /notifications with the
 * unread count, which the root loader reads beside the page's own reads.
 * With JavaScript it changes live: this person's own notifications arrive
 * over Realtime (row-level security lets each subscriber see only theirs),
 * a new one counts at once, and a change (read elsewhere) reads the count
 * again from /notifications/count, once for a burst of them. A delete
 * reaches every subscriber, whoever's row it was (Realtime can't check a
 * deleted row against RLS: docs/decisions/0018), so it only costs that read.
 */
export function NotificationBell({ unread, userId }: { unread: number | null; userId: string }) {
  const { count, live } = useLiveUnreadCount(unread ?? 0, userId);
  const label = count === 0 ? "Notifications" : `Notifications, ${unreadLabel(count)} unread`;
  return (
    <Link to="/notifications" className="bell" aria-label={label} data-live={live ? "subscribed" : undefined}>
      <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
        <path
          d="M10 2.5a5 5 0 0 0-5 5v3.2L3.5 13.5h13L15 10.7V7.5a5 5 0 0 0-5-5ZM8 15.5a2 2 0 0 0 4 0"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinejoin="round"
        />
      </svg>
      {count > 0 ? (
        <span className="bell-count" aria-hidden="true">
          {unreadLabel(count)}
        </span>
      ) : null}
    </Link>
  );
}

function useLiveUnreadCount(initial: number, userId: string): { count: number; live: boolean } {
  const root = useRouteLoaderData("root") as RootData | undefined;
  const env = root?.env ?? null;
  const [count, setCount] = useState(initial);
  const [live, setLive] = useState(false);
  const fetcher = useFetcher<{ unread: number | null }>();
  const load = useRef(fetcher.load);
  load.current = fetcher.load;

  // the server's number whenever the page's data is read again
  useEffect(() => setCount(initial), [initial]);
  useEffect(() => {
    if (typeof fetcher.data?.unread === "number") setCount(fetcher.data.unread);
  }, [fetcher.data]);

  useEffect(() => {
    if (!env) return;
    let cancelled = false;
    let channel: RealtimeChannel | null = null;
    let client: RealtimeClient | null = null;
    let lost = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const recount = () => {
      clearTimeout(timer);
      timer = setTimeout(() => load.current("/notifications/count"), 250);
    };
    void withSessionToken(env).then((c) => {
      if (cancelled) return;
      client = c;
      channel = c
        .channel(`bell:${userId}`)
        .on(
          "postgres_changes",
          { event: "*", schema: "public", table: "notifications", filter: `recipient_id=eq.${userId}` },
          (change) => {
            if (change.eventType === "INSERT") setCount((n) => n + 1);
            else recount();
          },
        )
        .subscribe((status) => {
          // back after a lost connection: what arrived meanwhile is counted once
          if (status === "SUBSCRIBED") {
            if (lost) recount();
            lost = false;
          } else if (!cancelled) lost = true;
          if (!cancelled) setLive(status === "SUBSCRIBED");
        });
    });
    return () => {
      cancelled = true;
      clearTimeout(timer);
      if (client && channel) void client.removeChannel(channel);
    };
  }, [env, userId]);

  return { count, live };
}
