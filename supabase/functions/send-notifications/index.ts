// POST, by the database's scheduler every minute (Supabase Cron + pg_net,
// migration 20261126000200) with the service role key: sends the notification
// emails that are due and answers how many it sent. Until notifications exist
// there is nothing to send: it answers { "sent": 0 }. Anyone but the service
// role is refused, so the function cannot be used to make the project send mail.
import { json, refuse, isServiceRole } from "../_shared/http.ts";

Deno.serve((req) => {
  if (req.method !== "POST") return refuse(405, "method_not_allowed", "The scheduler calls this with POST.");
  if (!isServiceRole(req)) return refuse(403, "service_role_required", "Only the project's scheduler may call this.");
  return json({ sent: 0 });
});
