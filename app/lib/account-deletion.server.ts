import type { SupabaseClient } from "@supabase/supabase-js";
import { adminClient, removeQueuedFiles } from "./storage.server";

/**
 * Deleting one's account (/account/delete). The auth user goes through the
 * admin API (the service role, server-side only); the database takes the
 * rest with it: the profile and memberships (cascade), the sessions and
 * refresh tokens (cascade), the avatar file (queued when the profile goes,
 * then removed through the Storage API). Tasks, comments and attachments
 * stay, their author set to null and shown as "Deleted user". A team owner
 * is refused until the ownership is transferred.
 */
export async function ownedTeams(supabase: SupabaseClient, userId: string) {
  const { data, error } = await supabase
    .from("team_members")
    .select("team:teams(name, slug)")
    .eq("user_id", userId)
    .eq("role", "owner")
    .returns<Array<{ team: { name: string; slug: string } | null }>>();
  return { error, teams: (data ?? []).flatMap((r) => (r.team ? [r.team] : [])) };
}

export type DeletionResult = { ok: true } | { ok: false; field: "email" | "form"; message: string; status: number };

export async function deleteAccount(
  supabase: SupabaseClient,
  user: { id: string; email: string },
  typedEmail: string,
): Promise<DeletionResult> {
  if (typedEmail.trim().toLowerCase() !== user.email.toLowerCase()) {
    return { ok: false, field: "email", status: 400, message: "Type your email address exactly as shown to confirm." };
  }
  const owned = await ownedTeams(supabase, user.id);
  if (owned.error) return { ok: false, field: "form", status: 503, message: owned.error.message };
  if (owned.teams.length > 0) {
    const names = owned.teams.map((t) => t.name).join(", ");
    return {
      ok: false,
      field: "form",
      status: 400,
      message: `You own ${names}. Transfer ownership in the team's settings first.`,
    };
  }
  const admin = adminClient();
  if (!admin)
    return {
      ok: false,
      field: "form",
      status: 503,
      message: "Account deletion needs the server's service key (SUPABASE_SERVICE_ROLE_KEY).",
    };
  const { error } = await admin.auth.admin.deleteUser(user.id);
  if (error)
    return { ok: false, field: "form", status: error.status && error.status < 500 ? 400 : 503, message: error.message };
  await removeQueuedFiles();
  return { ok: true };
}
