import type { TaskEvent } from "./activity";
import type { TimelineCursor } from "./comments";
import type { EmailSetting, NotificationKind } from "./notifications";
import { NOTIFICATION_KINDS, defaultEmailSetting } from "./notifications";
import type { SupabaseClient } from "./supabase-types";

/**
 * The signed-in person's notifications (docs/product.md §10), through the REST API
 * as themselves: row-level security shows each person only their own, and
 * lets them change nothing but read_at. The database makes them (migration
 * 20261126000410); the app reads, opens and marks them read.
 */
export const NOTIFICATIONS_PAGE_SIZE = 50;

export interface NotificationView {
  id: string;
  kind: NotificationKind;
  created_at: string;
  read_at: string | null;
  actor: { display_name: string } | null;
  actor_id: string | null;
  event: Pick<TaskEvent, "kind" | "data"> | null;
  comment: { body: string } | null;
  task: {
    number: number;
    title: string;
    due_on: string | null;
    project: { key: string; team: { slug: string; name: string } };
  };
}

type Embedded = {
  number: number;
  title: string;
  due_on: string | null;
  project: { key: string; team: { slug: string; name: string } | null } | null;
} | null;

/** The bell's number: unread notifications, counted up to 100 ("99+"). Null when it couldn't be read. */
export async function unreadCount(supabase: SupabaseClient): Promise<number | null> {
  const { data, error } = await supabase.rpc("unread_notification_count", undefined, { get: true });
  if (error) {
    console.error("[notifications] the unread count could not be read:", error.message);
    return null;
  }
  return data;
}

/** One page, newest first: all of them or the unread ones, before a cursor. One more than a page says there are more. */
export async function listNotifications(
  supabase: SupabaseClient,
  userId: string,
  { unreadOnly, before }: { unreadOnly: boolean; before: TimelineCursor | null },
) {
  let query = supabase
    .from("notifications")
    .select(
      `id, kind, created_at, read_at, actor_id,
       actor:profiles!notifications_actor_id_fkey(display_name),
       event:task_events(kind, data),
       comment:comments(body),
       task:tasks(number, title, due_on, project:projects(key, team:teams(slug, name)))`,
    )
    .eq("recipient_id", userId)
    .order("created_at", { ascending: false })
    .order("id", { ascending: false })
    .limit(NOTIFICATIONS_PAGE_SIZE + 1);
  if (unreadOnly) query = query.is("read_at", null);
  if (before) {
    query = query.or(`created_at.lt.${before.createdAt},and(created_at.eq.${before.createdAt},id.lt.${before.id})`);
  }
  const { data, error } = await query;
  const rows = (data ?? []) as unknown as Array<Omit<NotificationView, "task"> & { task: Embedded }>;
  return {
    error,
    // left embeds, not nested inner ones: those made the database join every notification of the
    // person to its task, project and team before taking a page (4.6× the demo's at 100,000);
    // a notification whose task the person can no longer read is left out here instead
    notifications: rows.slice(0, NOTIFICATIONS_PAGE_SIZE).filter((n): n is NotificationView => !!n.task?.project?.team),
    hasMore: rows.length > NOTIFICATIONS_PAGE_SIZE,
  };
}

/** Marks one read and says where its task is (null: not the person's, or its task is out of reach). */
export async function openNotification(supabase: SupabaseClient, id: string) {
  const { data, error } = await supabase.rpc("open_notification", { notification_id: id });
  const place = data as { team_slug: string; project_key: string; task_number: number } | null;
  return {
    error,
    path: place ? `/teams/${place.team_slug}/projects/${place.project_key}/tasks/${place.task_number}` : null,
  };
}

export async function markAllRead(supabase: SupabaseClient, userId: string) {
  return supabase
    .from("notifications")
    .update({ read_at: new Date().toISOString() })
    .eq("recipient_id", userId)
    .is("read_at", null);
}

/** Each kind's email setting, the defaults of §10 where the person chose nothing. */
export async function readEmailSettings(supabase: SupabaseClient, userId: string) {
  const { data, error } = await supabase.from("notification_settings").select("kind, email").eq("user_id", userId);
  const chosen = new Map((data ?? []).map((row) => [row.kind, row.email as EmailSetting]));
  const settings = Object.fromEntries(
    NOTIFICATION_KINDS.map((kind) => [kind, chosen.get(kind) ?? defaultEmailSetting(kind)]),
  ) as Record<NotificationKind, EmailSetting>;
  return { error, settings };
}

/** Saves every kind's setting in one request. */
export async function saveEmailSettings(
  supabase: SupabaseClient,
  userId: string,
  settings: Record<NotificationKind, EmailSetting>,
) {
  return supabase
    .from("notification_settings")
    .upsert(NOTIFICATION_KINDS.map((kind) => ({ user_id: userId, kind, email: settings[kind] })));
}

type UnsubscribeAnswer = { status: "subscribed" | "unsubscribed" | "already" | "unknown"; kinds?: NotificationKind[] };

/** What an unsubscribe link would do (nothing changes). */
export async function unsubscribeLinkStatus(supabase: SupabaseClient, token: string) {
  const { data, error } = await supabase.rpc("unsubscribe_link_status", { token });
  return { error, result: data as UnsubscribeAnswer | null };
}

/** The one-click unsubscribe link's answer (no sign-in: the token is the credential). */
export async function unsubscribe(supabase: SupabaseClient, token: string) {
  const { data, error } = await supabase.rpc("unsubscribe_from_emails", { token });
  return { error, result: data as UnsubscribeAnswer | null };
}
