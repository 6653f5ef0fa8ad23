import { useFetchers, useNavigation, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import type { RealtimeChannel, RealtimeClient } from "@supabase/realtime-js";
import { useEffect, useRef, useState } from "react";
import type { RootData } from "~/root";
import { withSessionToken } from "./browser-auth";
import { liveRefresh } from "./live-refresh";

/**
 * Live pages (docs/product.md §7), imported only by the routes that subscribe (the
 * board and the task panel), so other pages never load this code.
 *
 * The page subscribes to Postgres changes of the rows it shows; on any change
 * by anyone it reads its data again through its loaders. The server stays the
 * one source of truth: URL filters, counts, permissions and the order of cards
 * come out exactly as on a reload, and an own optimistic move is never applied
 * twice (the board's own answer and the change lead to the same data). After
 * the socket comes back (e.g. the backend restarted) the data is read once.
 * Without JavaScript none of this runs and pages are as they were.
 */
export interface LiveTable {
  table: string;
  /** a Realtime filter, e.g. `project_id=eq.<uuid>` */
  filter: string;
}

/**
 * The ids of the rows the page shows, per table. A delete carries only the
 * row's primary key (Realtime cannot check a deleted row against RLS), so it
 * reaches everyone who may read the table, whatever the filter: the page acts
 * only on deletes of rows it shows (docs/decisions/0018-realtime.md).
 */
export type ShownIds = Record<string, readonly string[]>;

interface ChangePayload {
  eventType: "INSERT" | "UPDATE" | "DELETE";
  old?: Record<string, unknown>;
}

/** Is this change about a row the page may be showing? */
export function concernsPage(table: string, change: ChangePayload, shown: ShownIds): boolean {
  if (change.eventType !== "DELETE") return true; // filtered by the server, under RLS
  const id = change.old?.id;
  return typeof id === "string" && (shown[table] ?? []).includes(id);
}

const DEBOUNCE_MS = 120;

function useBrowserClient(): { env: RootData["env"] | null; signedIn: boolean } {
  const root = useRouteLoaderData("root") as RootData | undefined;
  return { env: root?.env ?? null, signedIn: !!root?.user };
}

/**
 * A field someone is typing into: reading the data again could remount its
 * form and lose what was typed, so the refresh waits until it is sent or left.
 */
function someoneIsTyping(): boolean {
  const active = document.activeElement;
  if (!(active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement)) return false;
  const form = active.form;
  if (!form || form.method.toLowerCase() !== "post") return false;
  return active.value !== active.defaultValue;
}

/** Reads the page's data again, marked as a live refresh (see live-refresh.ts). */
function liveRevalidate(scope: "board" | "task", revalidator: { revalidate(): void }) {
  liveRefresh.scope = scope;
  liveRefresh.until = Date.now() + 5000;
  revalidator.revalidate();
}

export function useLiveData(name: "board" | "task", tables: LiveTable[], shown: ShownIds) {
  const { env, signedIn } = useBrowserClient();
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || revalidator.state !== "idle" || fetchers.some((f) => f.state !== "idle");
  const latest = useRef({ revalidator, busy, shown });
  latest.current = { revalidator, busy, shown };
  const deferred = useRef(false);
  const key = JSON.stringify(tables);

  useEffect(() => {
    if (!env || !signedIn) return;
    let cancelled = false;
    let channel: RealtimeChannel | null = null;
    let client: RealtimeClient | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lost = false;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (latest.current.busy || someoneIsTyping()) {
          deferred.current = true;
          timer = setTimeout(refresh, 1000);
          return;
        }
        deferred.current = false;
        liveRevalidate(name, latest.current.revalidator);
      }, DEBOUNCE_MS);
    };
    void withSessionToken(env).then((c) => {
      if (cancelled) return;
      client = c;
      channel = c.channel(`${name}:${crypto.randomUUID()}`);
      for (const t of JSON.parse(key) as LiveTable[]) {
        channel.on("postgres_changes", { event: "*", schema: "public", table: t.table, filter: t.filter }, (change) => {
          if (concernsPage(t.table, change, latest.current.shown)) refresh();
        });
      }
      channel.subscribe((status) => {
        if (status === "SUBSCRIBED") {
          // back after a lost connection: what changed meanwhile is read once
          if (lost) refresh();
          lost = false;
        } else if (!cancelled) {
          lost = true;
        }
      });
    });
    return () => {
      cancelled = true;
      clearTimeout(timer);
      if (client && channel) void client.removeChannel(channel);
    };
  }, [name, key, env, signedIn]);

  // the live refresh's mark ends with the revalidation it started
  const wasLoading = useRef(false);
  useEffect(() => {
    if (revalidator.state === "loading") wasLoading.current = true;
    else if (wasLoading.current) {
      wasLoading.current = false;
      liveRefresh.scope = null;
    }
  }, [revalidator.state]);

  // a refresh that waited for this tab's own request runs when it is done
  useEffect(() => {
    if (!busy && deferred.current && !someoneIsTyping()) {
      deferred.current = false;
      liveRevalidate(name, revalidator);
    }
  }, [busy, revalidator, name]);
}

/**
 * Presence on a private channel (`task:<id>`, allowed by RLS on
 * realtime.messages to those who can read the task): this person is tracked
 * while the page is open; returns the user ids of the other people on it.
 * Presence keys are the only thing read: the local stack sets them from the
 * token, and names come from the page's own member list, never from what
 * another client sent.
 */
export function usePresence(topic: string, myId: string | null): string[] {
  const { env, signedIn } = useBrowserClient();
  const [others, setOthers] = useState<string[]>([]);

  useEffect(() => {
    if (!env || !signedIn || !myId) return;
    let cancelled = false;
    let channel: RealtimeChannel | null = null;
    let client: RealtimeClient | null = null;
    void withSessionToken(env).then((c) => {
      if (cancelled) return;
      client = c;
      const ch = c.channel(topic, { config: { private: true, presence: { key: myId } } });
      channel = ch;
      ch.on("presence", { event: "sync" }, () => {
        setOthers(Object.keys(ch.presenceState()).filter((id) => id !== myId));
      });
      ch.subscribe((status) => {
        if (status === "SUBSCRIBED") void ch.track({});
      });
    });
    return () => {
      cancelled = true;
      setOthers([]);
      if (client && channel) void client.removeChannel(channel);
    };
  }, [topic, myId, env, signedIn]);

  return others;
}
