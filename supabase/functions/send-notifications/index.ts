// POST, by the database's scheduler every minute (Supabase Cron + pg_net,
// migration 20261126000200) with the service role key: sends the notification
// emails that are due and answers how many it sent ({ sent, failed }).
//
// The database decides what is due and hands each batch to one run only
// (claim_notification_emails: one email per person with everything pending
// for them, right-away ones once the oldest is 50 s old, digests after their
// 08:00); each batch is reported back as sent or failed
// (finish_notification_emails). A failed batch stays pending and is tried
// again by a later run; when the mail server can't be reached at all the run
// stops there and gives back what it holds. Anyone but the service role is
// refused, so the function cannot be used to make the project send mail.
// docs/decisions/0028-activity-and-notifications.md.
import { isServiceRole, json, refuse, serviceClient } from "../_shared/http.ts";
import { createMailer, refusedByServer } from "../_shared/mail.ts";
import { compose, mentionedUsernames, type Batch, type MentionNames } from "./compose.ts";
import type { SupabaseClient } from "npm:@supabase/supabase-js@2";

/** The edge runtime stops a function at 150 s; a run claims nothing new after this. */
const TIME_BUDGET_MS = 90_000;
const BATCHES_PER_CLAIM = 50;
const SENDING_AT_ONCE = 8;

async function eachAtMost<T>(items: T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** The run's "now": the scheduler's; the service role may name another (tests run the 08:00 digest that way). */
async function runTime(req: Request): Promise<Date | null> {
  let body: { now?: unknown } = {};
  try {
    body = (await req.json()) ?? {};
  } catch {
    // the scheduler always sends JSON; an empty body means now
  }
  if (body.now === undefined) return new Date();
  const at = typeof body.now === "string" ? new Date(body.now) : new Date(NaN);
  return Number.isNaN(at.getTime()) ? null : at;
}

/**
 * The display names of the people the claimed comments mention, per team:
 * only members of the comment's team are named, as the app names only people
 * the reader may see (a name is never looked up outside the team).
 */
async function mentionNames(db: SupabaseClient, batches: Batch[]): Promise<MentionNames> {
  const items = batches.flatMap((b) => b.items).filter((i) => i.comment_body);
  const usernames = [...mentionedUsernames(items)];
  const names = new Map<string, string>();
  if (usernames.length === 0) return names;
  const slugs = [...new Set(items.map((i) => i.team_slug))];
  const [people, teams] = await Promise.all([
    db.from("profiles").select("id, username, display_name").in("username", usernames),
    db.from("teams").select("id, slug").in("slug", slugs),
  ]);
  if (people.error || teams.error || !people.data?.length || !teams.data?.length) return names;
  const members = await db
    .from("team_members")
    .select("team_id, user_id")
    .in(
      "team_id",
      teams.data.map((t) => t.id),
    )
    .in(
      "user_id",
      people.data.map((p) => p.id),
    );
  const slugOf = new Map(teams.data.map((t) => [t.id as string, t.slug as string]));
  const person = new Map(people.data.map((p) => [p.id as string, p]));
  for (const m of members.data ?? []) {
    const p = person.get(m.user_id as string);
    if (p) names.set(`${slugOf.get(m.team_id as string)}:${String(p.username).toLowerCase()}`, String(p.display_name));
  }
  return names;
}

Deno.serve(async (req) => {
  if (req.method !== "POST") return refuse(405, "method_not_allowed", "The scheduler calls this with POST.");
  if (!isServiceRole(req)) return refuse(403, "service_role_required", "Only the project's scheduler may call this.");
  const at = await runTime(req);
  if (!at) return refuse(400, "invalid_now", "now must be an ISO 8601 time.");

  const started = Date.now();
  const site = (Deno.env.get("SITE_URL") ?? "http://localhost:5173").replace(/\/+$/, "");
  const db = serviceClient();
  const mailer = createMailer({ pool: true });
  let sent = 0;
  let failed = 0;
  let unreachable = false;
  try {
    while (!unreachable && Date.now() - started < TIME_BUDGET_MS) {
      const { data, error } = await db.rpc("claim_notification_emails", {
        at: at.toISOString(),
        max_batches: BATCHES_PER_CLAIM,
      });
      if (error) throw new Error(`claiming notifications failed: ${error.message}`);
      const batches = (data ?? []) as Batch[];
      if (batches.length === 0) break;

      const names = await mentionNames(db, batches);
      const done: string[] = [];
      const notDone: string[] = [];
      await eachAtMost(batches, SENDING_AT_ONCE, async (batch) => {
        if (unreachable) return void notDone.push(batch.claim);
        try {
          await mailer.send(compose(batch, site, names));
          done.push(batch.claim);
        } catch (error) {
          notDone.push(batch.claim);
          console.error(`emailing ${batch.recipient.email} failed: ${(error as Error).message}`);
          if (!refusedByServer(error)) unreachable = true;
        }
      });
      const { error: finishError } = await db.rpc("finish_notification_emails", {
        sent_claims: done,
        failed_claims: notDone,
      });
      if (finishError) throw new Error(`recording what was sent failed: ${finishError.message}`);
      sent += done.length;
      failed += notDone.length;
      if (batches.length < BATCHES_PER_CLAIM) break;
    }
  } finally {
    mailer.close();
  }
  if (sent || failed) console.log(`sent ${sent} emails${failed ? `, ${failed} left for the next run` : ""}`);
  return json({ sent, failed });
});
