import type { SupabaseClient } from "./supabase-types";
import { FunctionsFetchError, FunctionsHttpError, FunctionsRelayError } from "@supabase/supabase-js";
import type { Role } from "./permissions";

/**
 * Invitations (docs/product.md §2, §4): sent by the `send-invitation` function
 * (it makes the token, stores its hash and emails the link), listed and
 * revoked through the table's RLS, opened through invitation_preview(),
 * accepted or declined through their RPCs. All with the person's own client.
 */
export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
}

export type InvitationStatus = "pending" | "accepted" | "revoked" | "expired";

export interface InvitationPreview {
  teamName: string;
  teamSlug: string;
  inviterName: string | null;
  role: Role;
  email: string;
  status: InvitationStatus;
  expiresAt: string;
  /** the invited address has an account: "Log in" first, else "Sign up" first */
  hasAccount: boolean;
}

export type SendResult =
  { ok: true; email: string } | { ok: false; status: number; message: string; code: string; unavailable?: boolean };

/** Calls send-invitation; its refusals (400, 403, 404, 409, 429, 502) come back as readable messages. */
export async function sendInvitation(
  supabase: SupabaseClient,
  input: { teamId: string; email: string; role: Role; projectIds?: string[] },
): Promise<SendResult> {
  const { data, error } = await supabase.functions.invoke<{ email: string }>("send-invitation", {
    body: { team_id: input.teamId, email: input.email, role: input.role, project_ids: input.projectIds ?? [] },
  });
  if (!error) return { ok: true, email: data?.email ?? input.email };
  if (error instanceof FunctionsHttpError) {
    const res = error.context as Response;
    const body = (await res.json().catch(() => null)) as { error?: string; code?: string } | null;
    if (body?.error && res.status < 500)
      return { ok: false, status: res.status, message: body.error, code: body.code ?? "" };
    if (body?.code === "email_failed") return { ok: false, status: 502, message: body.error ?? "", code: body.code };
    return { ok: false, status: 503, message: "", code: "function_failed", unavailable: true };
  }
  if (error instanceof FunctionsFetchError || error instanceof FunctionsRelayError) {
    return { ok: false, status: 503, message: "", code: "unreachable", unavailable: true };
  }
  throw error;
}

/** The team's invitations still waiting for an answer, newest first. */
export async function listPendingInvitations(supabase: SupabaseClient, teamId: string) {
  const { data, error } = await supabase
    .from("invitations")
    .select("id, email, role, created_at, expires_at")
    .eq("team_id", teamId)
    .is("accepted_at", null)
    .is("revoked_at", null)
    .gt("expires_at", new Date().toISOString())
    .order("created_at", { ascending: false })
    .limit(100)
    .returns<Array<{ id: string; email: string; role: Role; created_at: string; expires_at: string }>>();
  const items: PendingInvitation[] = (data ?? []).map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  }));
  return { error, items };
}

/** One pending invitation of the team (for resend), or null. */
export async function findPendingInvitation(supabase: SupabaseClient, teamId: string, id: string) {
  return supabase
    .from("invitations")
    .select("id, email, role, project_ids")
    .eq("team_id", teamId)
    .eq("id", id)
    .is("accepted_at", null)
    .is("revoked_at", null)
    .maybeSingle<{ id: string; email: string; role: Role; project_ids: string[] }>();
}

export async function revokeInvitation(supabase: SupabaseClient, teamId: string, id: string) {
  return supabase
    .from("invitations")
    .update({ revoked_at: new Date().toISOString() })
    .eq("team_id", teamId)
    .eq("id", id)
    .is("accepted_at", null)
    .is("revoked_at", null)
    .select("id, email")
    .maybeSingle<{ id: string; email: string }>();
}

export async function previewInvitation(supabase: SupabaseClient, token: string) {
  // side by side: whether the address has an account decides which way in the page offers first
  const [{ data, error }, account] = await Promise.all([
    supabase.rpc("invitation_preview", { token }),
    supabase.rpc("invitation_has_account", { token }),
  ]);
  const row = (
    data as Array<{
      team_name: string;
      team_slug: string;
      inviter_name: string | null;
      role: Role;
      email: string;
      status: InvitationStatus;
      expires_at: string;
    }> | null
  )?.[0];
  const preview: InvitationPreview | null = row
    ? {
        teamName: row.team_name,
        teamSlug: row.team_slug,
        inviterName: row.inviter_name,
        role: row.role,
        email: row.email,
        status: row.status,
        expiresAt: row.expires_at,
        hasAccount: account.data === true,
      }
    : null;
  return { error: error ?? account.error, preview };
}

export async function acceptInvitation(supabase: SupabaseClient, token: string) {
  return supabase.rpc("accept_invitation", { token }).single<{ id: string; name: string; slug: string }>();
}

export async function declineInvitation(supabase: SupabaseClient, token: string) {
  return supabase.rpc("decline_invitation", { token });
}

/** Pending invitations to the signed-in person's address, with team and inviter names (for /teams). */
export async function listMyInvitations(supabase: SupabaseClient) {
  const { data, error } = await supabase.rpc("my_invitations");
  const items = (
    (data ?? []) as Array<{
      id: string;
      team_name: string;
      inviter_name: string | null;
      role: Role;
      expires_at: string;
    }>
  ).map((row) => ({
    id: row.id,
    teamName: row.team_name,
    inviterName: row.inviter_name,
    role: row.role,
    expiresAt: row.expires_at,
  }));
  return { error, items };
}
