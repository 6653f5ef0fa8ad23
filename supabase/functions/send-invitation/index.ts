// POST { team_id, email, role, project_ids? } with the caller's token: invites an address to
// a team and emails the link /invitations/<token>. `project_ids`: projects of the team the
// person is added to on accepting (a guest needs at least one: it is all they will see). The caller's own client and
// row-level security decide whether they may (admins and the owner); the token
// is stored only as its SHA-256; the invitation is valid 7 days (the table's
// default); a pending invitation to the same address is replaced; one
// invitation email per address per 60 s.
import { callerClient, corsHeaders, json, refuse, serviceClient, signedInCaller } from "../_shared/http.ts";
import { createMailer, escapeHtml } from "../_shared/mail.ts";

const ROLES = ["admin", "member", "viewer", "guest"] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_PROJECTS = 100;
const EMAIL_INTERVAL_SECONDS = 60;
const ROLE_NAMES: Record<string, string> = {
  admin: "an admin",
  member: "a member",
  viewer: "a viewer",
  guest: "a guest",
};

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

async function sha256Hex(s: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function sendEmail(to: string, subject: string, html: string, text: string) {
  const mailer = createMailer();
  try {
    await mailer.send({ to, subject, html, text });
  } finally {
    mailer.close();
  }
}

Deno.serve(async (req) => {
  if (req.method === "OPTIONS") return new Response("ok", { headers: corsHeaders });
  if (req.method !== "POST") return refuse(405, "method_not_allowed", "Send the invitation with POST.");

  let input: { team_id?: unknown; email?: unknown; role?: unknown; project_ids?: unknown };
  try {
    input = await req.json();
  } catch {
    return refuse(400, "invalid_body", "The body must be JSON: { team_id, email, role }.");
  }
  const teamId = typeof input?.team_id === "string" ? input.team_id : "";
  const email = typeof input?.email === "string" ? input.email.trim().toLowerCase() : "";
  const role = typeof input?.role === "string" ? input.role : "member";
  const projectIds = input?.project_ids ?? [];
  if (!UUID.test(teamId)) {
    return refuse(400, "invalid_team", "Which team? team_id must be the team's id.");
  }
  if (email.length > 254 || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
    return refuse(400, "invalid_email", "Enter a valid email address.");
  }
  if (role === "owner")
    return refuse(400, "invalid_role", "An invitation can't make someone the owner. Transfer ownership instead.");
  if (!(ROLES as readonly string[]).includes(role))
    return refuse(400, "invalid_role", "The role must be admin, member, viewer or guest.");
  if (
    !Array.isArray(projectIds) ||
    projectIds.length > MAX_PROJECTS ||
    !projectIds.every((id) => typeof id === "string" && UUID.test(id))
  ) {
    return refuse(400, "invalid_projects", "project_ids must be a list of at most 100 project ids.");
  }
  if (role === "guest" && projectIds.length === 0) {
    return refuse(400, "invalid_projects", "Choose at least one project for a guest: it is all they will see.");
  }

  const caller = callerClient(req);
  const signedIn = await signedInCaller(req, caller);
  if (signedIn instanceof Response) return signedIn;
  const me = signedIn.id;

  // The caller's own membership, read through RLS: no row for a stranger.
  const { data: membership, error: membershipError } = await caller
    .from("team_members")
    .select("role, team:teams(name, slug), person:profiles(display_name)")
    .eq("team_id", teamId)
    .eq("user_id", me)
    .maybeSingle();
  if (membershipError) throw new Error(`reading the membership failed: ${membershipError.message}`);
  if (!membership) return refuse(404, "team_not_found", "Team not found.");
  if (membership.role !== "admin" && membership.role !== "owner") {
    return refuse(403, "forbidden", "Your role in this team doesn't allow that.");
  }

  // The projects must be the team's (read through RLS: an admin sees all of them).
  if (projectIds.length > 0) {
    const { data: found, error: projectsError } = await caller
      .from("projects")
      .select("id")
      .eq("team_id", teamId)
      .in("id", projectIds as string[]);
    if (projectsError) throw new Error(`reading the projects failed: ${projectsError.message}`);
    if ((found ?? []).length !== new Set(projectIds).size) {
      return refuse(400, "invalid_projects", "Choose projects of this team.");
    }
  }

  const { data: alreadyMember, error: memberError } = await caller.rpc("team_has_member_email", {
    team_id: teamId,
    email,
  });
  if (memberError) throw new Error(`checking members failed: ${memberError.message}`);
  if (alreadyMember) return refuse(409, "already_member", `${email} is already a member of this team.`);

  // One invitation email per address per minute, whichever team sent it: the
  // caller can't see other teams' invitations, so this count uses the service role.
  const since = new Date(Date.now() - EMAIL_INTERVAL_SECONDS * 1000).toISOString();
  const { data: recent, error: recentError } = await serviceClient()
    .from("invitations")
    .select("created_at")
    .eq("email", email)
    .gt("created_at", since)
    .order("created_at", { ascending: false })
    .limit(1);
  if (recentError) throw new Error(`checking the rate limit failed: ${recentError.message}`);
  if (recent && recent.length > 0) {
    const wait = Math.max(
      1,
      Math.ceil((Date.parse(recent[0].created_at) + EMAIL_INTERVAL_SECONDS * 1000 - Date.now()) / 1000),
    );
    return refuse(
      429,
      "over_email_send_rate_limit",
      `An invitation was just sent to ${email}. Try again in ${wait} seconds.`,
      {
        "Retry-After": String(wait),
      },
    );
  }

  // A new invitation replaces the pending one (its link stops working).
  const { error: replaceError } = await caller
    .from("invitations")
    .update({ revoked_at: new Date().toISOString() })
    .eq("team_id", teamId)
    .eq("email", email)
    .is("accepted_at", null)
    .is("revoked_at", null);
  if (replaceError) throw new Error(`replacing the pending invitation failed: ${replaceError.message}`);

  const token = randomToken();
  const { data: invitation, error: insertError } = await caller
    .from("invitations")
    .insert({ team_id: teamId, email, role, token_hash: await sha256Hex(token), project_ids: projectIds as string[] })
    .select("id, email, role, created_at, expires_at")
    .single();
  if (insertError) throw new Error(`creating the invitation failed: ${insertError.message}`);

  const team = membership.team as unknown as { name: string; slug: string };
  const inviter = (membership.person as unknown as { display_name: string } | null)?.display_name ?? "A teammate";
  const siteUrl = (Deno.env.get("SITE_URL") ?? "http://localhost:5173").replace(/\/+$/, "");
  const link = `${siteUrl}/invitations/${token}`;
  const subject = `${inviter} invited you to ${team.name} on Teamboard`;
  const html = `<h2>Join ${escapeHtml(team.name)} on Teamboard</h2>
<p>${escapeHtml(inviter)} invited you to join the team ${escapeHtml(team.name)} as ${ROLE_NAMES[role]}.</p>
<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>
<p>The link is valid for 7 days. If you weren't expecting it, ignore this email.</p>`;
  const text = `${inviter} invited you to join the team ${team.name} on Teamboard as ${ROLE_NAMES[role]}.\n\nAccept the invitation: ${link}\n\nThe link is valid for 7 days. If you weren't expecting it, ignore this email.`;
  try {
    await sendEmail(email, subject, html, text);
  } catch (error) {
    console.error(`sending the invitation email to ${email} failed:`, error);
    // No invitation without its email: withdraw it, so the admin can simply try again.
    await caller.from("invitations").update({ revoked_at: new Date().toISOString() }).eq("id", invitation.id);
    return refuse(502, "email_failed", "The invitation email could not be sent. Try again in a moment.");
  }
  console.log(`invited ${email} to ${team.slug} as ${role}`);
  return json(invitation, 201);
});
