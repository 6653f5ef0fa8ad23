import { daysBetween, formatDay } from "./dates";

/**
 * Notifications and their email settings (docs/product.md §10), shared by the
 * pages and the server. The kinds and the defaults are the database's too
 * (public.notification_kinds(), default_email_setting()).
 */
export const NOTIFICATION_KINDS = ["assigned", "mentioned", "comment", "status", "due_date", "webhook_off"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const EMAIL_SETTINGS = ["instant", "daily", "never"] as const;
export type EmailSetting = (typeof EMAIL_SETTINGS)[number];

export const KIND_LABELS: Record<NotificationKind, string> = {
  assigned: "A task is assigned to me",
  mentioned: "Someone mentions me",
  comment: "Comments on tasks I watch",
  status: "Status changes on tasks I watch",
  due_date: "Due-date reminders",
  webhook_off: "A project's webhook is turned off after failing (admins)",
};

/** What the emails of a kind are about, in a sentence ("We won't email you about …"). */
export const KIND_TOPICS: Record<NotificationKind, string> = {
  assigned: "tasks assigned to you",
  mentioned: "mentions of you",
  comment: "comments on tasks you watch",
  status: "status changes on tasks you watch",
  due_date: "due-date reminders",
  webhook_off: "webhooks turned off after failing",
};

export const EMAIL_SETTING_LABELS: Record<EmailSetting, string> = {
  instant: "Right away",
  daily: "Daily digest at 08:00",
  never: "Don't email",
};

export function defaultEmailSetting(kind: NotificationKind): EmailSetting {
  return kind === "assigned" || kind === "mentioned" ? "instant" : "never";
}

/** The header's count: "99+" past 99 (the database counts up to 100). */
export function unreadLabel(count: number): string {
  return count > 99 ? "99+" : String(count);
}

/** A status as an event keeps it, `{ id, name }` (its name then; none when it was being removed). */
export function statusName(value: unknown): string {
  const name = value && typeof value === "object" && "name" in value ? (value as { name: unknown }).name : null;
  return typeof name === "string" ? name : "a removed status";
}

/** What happened, after the actor's name: "assigned you", "moved it from To do to Done" (a reminder has no actor: dueReminderWords). */
export function notificationVerb(
  kind: Exclude<NotificationKind, "due_date">,
  event: { data: Record<string, unknown> } | null,
): string {
  switch (kind) {
    case "assigned":
      return "assigned you";
    case "mentioned":
      return "mentioned you on";
    case "comment":
      return "commented on";
    case "status": {
      const change = (event?.data.changes as Record<string, { from?: unknown; to?: unknown }> | undefined)?.status;
      return change ? `moved from ${statusName(change.from)} to ${statusName(change.to)}:` : "changed the status of";
    }
    case "webhook_off":
      return "A webhook of this project failed 20 times in a row and is turned off (settings → Webhooks); its last delivery was about";
  }
}

/**
 * A due-date reminder has no actor: it is said of the task, after its title
 * ("WEB-5 Send the invoices is due today"), from its due date as it is now and
 * the viewer's today, so it stays true when read later.
 */
export function dueReminderWords(dueOn: string | null, today: string): string {
  if (!dueOn) return "no longer has a due date";
  const days = daysBetween(today, dueOn);
  if (days === 0) return "is due today";
  if (days === 1) return "is due tomorrow";
  if (days < 0) return `was due ${formatDay(dueOn)}`;
  return `is due ${formatDay(dueOn)}`;
}
