// One notification email from one claimed batch (claim_notification_emails):
// a subject, a plain-text and an HTML part saying the same, a link to each
// task, and the person's unsubscribe link, also as RFC 8058's headers so a
// mail client can offer one-click unsubscribe.
import markdownIt from "npm:markdown-it@15";
import { escapeHtml, type Mail } from "../_shared/mail.ts";
import { plainText } from "../_shared/plain-text.ts";

/** Comments are Markdown: quoted as plain words (no pipes, no `![…](…)`), raw HTML as the text it is. */
const markdown = markdownIt("default", { html: false, linkify: false });

/** The people a batch's comments mention, by team: `<team slug>:<lower-case username>` → display name. */
export type MentionNames = ReadonlyMap<string, string>;

/** A comment as one line of plain text, its mentions named (issue 42 §11). */
export function quoteOf(item: BatchItem, names: MentionNames): string {
  const tokens = markdown.parse(item.comment_body ?? "", {});
  return excerpt(plainText(tokens, (username) => names.get(`${item.team_slug}:${username}`)));
}

/** `@username`s written in a batch's comments (lower case), as the app finds them. */
export function mentionedUsernames(items: BatchItem[]): Set<string> {
  const found = new Set<string>();
  for (const item of items)
    for (const m of (item.comment_body ?? "").matchAll(/(?<![\w@./-])@([A-Za-z0-9_]{3,30})(?![\w@-])/g))
      found.add(m[1].toLowerCase());
  return found;
}
export interface BatchItem {
  id: string;
  kind: string;
  created_at: string;
  actor_name: string | null;
  task_number: number;
  task_title: string;
  project_key: string;
  team_slug: string;
  team_name: string;
  event_kind: string | null;
  changes: Record<string, { from?: unknown; to?: unknown }> | null;
  comment_body: string | null;
}

export interface Batch {
  claim: string;
  mode: "instant" | "daily";
  unsubscribe_token: string;
  recipient: { id: string; email: string | null; display_name: string | null };
  kinds: string[];
  total: number;
  items: BatchItem[];
}

const KIND_NAMES: Record<string, string> = {
  assigned: "tasks assigned to you",
  mentioned: "mentions of you",
  comment: "comments on tasks you watch",
  status: "status changes on tasks you watch",
  due_date: "due-date reminders",
  webhook_off: "webhooks turned off after failing",
};

// a status as an event keeps it: { id, name } (no name: it was being removed)
function statusName(value: unknown): string {
  const name = value && typeof value === "object" && "name" in value ? (value as { name: unknown }).name : null;
  return typeof name === "string" ? name : "a removed status";
}

function listOf(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

function excerpt(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** What happened, in words: "Olive assigned you WEB-12 Write the brief". */
export function describe(item: BatchItem): string {
  const who = item.actor_name ?? "Someone";
  const task = `${item.project_key}-${item.task_number} ${item.task_title}`;
  switch (item.kind) {
    case "assigned":
      return `${who} assigned you ${task}`;
    case "mentioned":
      return `${who} mentioned you on ${task}`;
    case "comment":
      return `${who} commented on ${task}`;
    case "status": {
      const change = item.changes?.status;
      return change
        ? `${who} moved ${task} from ${statusName(change.from)} to ${statusName(change.to)}`
        : `${who} changed the status of ${task}`;
    }
    case "due_date":
      return `${task} is due soon`;
    case "webhook_off":
      return `A webhook of ${item.project_key} failed 20 times in a row and is turned off (its last delivery: ${task})`;
    default:
      return `${who} changed ${task}`;
  }
}

export function taskUrl(site: string, item: BatchItem): string {
  return `${site}/teams/${encodeURIComponent(item.team_slug)}/projects/${item.project_key}/tasks/${item.task_number}`;
}

export function compose(batch: Batch, site: string, names: MentionNames = new Map()): Mail & { to: string } {
  const unsubscribe = `${site}/unsubscribe/${batch.unsubscribe_token}`;
  const settings = `${site}/account/notifications`;
  const more = batch.total - batch.items.length;
  const refs = [...new Set(batch.items.map((i) => `${i.project_key}-${i.task_number}`))];
  const subject =
    batch.mode === "daily"
      ? `Your Teamboard digest: ${batch.total} ${batch.total === 1 ? "update" : "updates"}`
      : batch.total === 1
        ? excerpt(describe(batch.items[0]), 150)
        : `${batch.total} updates on Teamboard: ${excerpt(refs.join(", "), 100)}`;
  const reason = `You get these emails for ${listOf(batch.kinds.map((k) => KIND_NAMES[k] ?? k))}.`;

  const textItems = batch.items.map((item) => {
    const quote = item.comment_body ? `\n  “${quoteOf(item, names)}”` : "";
    return `- ${describe(item)} (${item.team_name})${quote}\n  ${taskUrl(site, item)}`;
  });
  const text = [
    batch.mode === "daily" ? "What happened since yesterday's digest:" : "What happened on Teamboard:",
    "",
    ...textItems,
    ...(more > 0 ? ["", `…and ${more} more: ${site}/notifications`] : []),
    "",
    "--",
    reason,
    `Choose what you get: ${settings}`,
    `Unsubscribe from these emails: ${unsubscribe}`,
  ].join("\n");

  const htmlItems = batch.items
    .map((item) => {
      const quote = item.comment_body
        ? `<blockquote style="margin:4px 0 0;color:#444">${escapeHtml(quoteOf(item, names))}</blockquote>`
        : "";
      return `<li style="margin-bottom:12px"><a href="${escapeHtml(taskUrl(site, item))}">${escapeHtml(describe(item))}</a> <span style="color:#666">(${escapeHtml(item.team_name)})</span>${quote}</li>`;
    })
    .join("\n");
  const html = `<p>${batch.mode === "daily" ? "What happened since yesterday's digest:" : "What happened on Teamboard:"}</p>
<ul>
${htmlItems}
</ul>
${more > 0 ? `<p>…and <a href="${escapeHtml(`${site}/notifications`)}">${more} more</a>.</p>` : ""}
<hr>
<p style="color:#666;font-size:13px">${escapeHtml(reason)} <a href="${escapeHtml(settings)}">Choose what you get</a> · <a href="${escapeHtml(unsubscribe)}">Unsubscribe from these emails</a></p>`;

  return {
    to: batch.recipient.email ?? "",
    subject,
    text,
    html,
    headers: {
      "List-Unsubscribe": `<${unsubscribe}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
