import crypto from "node:crypto";
import { createClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { env } from "./env.server";
import type { Database, SupabaseClient } from "./supabase-types";

/**
 * Public read-only links (docs/product.md §20; docs/decisions/0042-public-links.md):
 * `/shared/<secret>` shows a project's board, or one of its shared saved
 * views, to anyone holding the address, without signing in. The secret is 32
 * random bytes in base64url (256 bits), shown once to the admin who made it;
 * the database keeps only its SHA-256 (share_links, 20261208000200).
 */

/** 32 bytes in base64url: 43 characters of A-Z a-z 0-9 _ - */
export const SHARE_SECRET = /^[A-Za-z0-9_-]{43}$/;

export function newShareSecret(): { secret: string; hash: string } {
  const secret = crypto.randomBytes(32).toString("base64url");
  return { secret, hash: shareSecretHash(secret) };
}

export function shareSecretHash(secret: string): string {
  return crypto.createHash("sha256").update(secret).digest("hex");
}

export function sharedPath(secret: string): string {
  return `/shared/${secret}`;
}

/** What shared_board() answers: only what the sharer chose (no ids, no emails, no attachments). */
export interface SharedBoard {
  project: { key: string; name: string };
  view: string | null;
  fields: string[];
  comments: boolean;
  statuses: Array<{
    name: string;
    color: string;
    category: string;
    /** the column's tasks; at most the first 500 are in `tasks` */
    total: number;
    tasks: Array<{
      number: number;
      title: string;
      labels: Array<{ name: string; color: string }>;
      fields: Array<{ name: string; value: string | null }>;
      comments: Array<{ author: string; body: string; created_at: string }> | null;
    }>;
  }>;
}

let anon: SupabaseClient | null = null;
/** No session and no cookies, whoever asks: the secret is the only key (as the calendar feed's). */
function anonClient(): SupabaseClient {
  anon ??= createClient<Database>(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no global WebSocket, and supabase-js builds its Realtime client at once (never used here)
    realtime: { transport: WebSocket as never },
  });
  return anon;
}

/** The board behind `secret`, or null (unknown, revoked, malformed: all the same). One call. */
export async function sharedBoard(secret: string): Promise<SharedBoard | null> {
  if (!SHARE_SECRET.test(secret)) return null;
  const { data, error } = await anonClient().rpc("shared_board", { secret });
  if (error) throw error;
  return (data as SharedBoard | null) ?? null;
}

// Rate limit -------------------------------------------------------------------------------------

/** Page views per address per minute (documented in docs/product.md; 429 with Retry-After beyond). */
export const SHARED_PAGE_LIMIT = 60;
const WINDOW_MS = 60_000;
/** addresses remembered at most; beyond, the ended windows are dropped first */
const MAX_ADDRESSES = 10_000;
const windows = new Map<string, { start: number; count: number }>();

/**
 * Counts one view of a shared page for `client` (the request's address, as
 * server.mjs believes it): 0 when it may go on, else the seconds to wait. Every
 * view counts, found or not, so guessing addresses is as slow as reading. A
 * fixed window per address and per app instance (in memory): behind several
 * instances the limit is per instance. No address (this machine, a proxy that
 * did not say whom it forwards for) is not limited here, as the server's
 * per-address caps.
 */
export function takeSharedPageTurn(client: string | undefined, now = Date.now()): number {
  if (!client) return 0;
  let window = windows.get(client);
  if (!window || now - window.start >= WINDOW_MS) {
    if (!window && windows.size >= MAX_ADDRESSES) forgetEndedWindows(now);
    window = { start: now, count: 0 };
    windows.set(client, window);
  }
  window.count += 1;
  if (window.count <= SHARED_PAGE_LIMIT) return 0;
  return Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
}

function forgetEndedWindows(now: number) {
  for (const [client, window] of windows) if (now - window.start >= WINDOW_MS) windows.delete(client);
  // every address still inside its minute: forget the oldest (a flood of addresses can't grow this without end)
  while (windows.size >= MAX_ADDRESSES) windows.delete(windows.keys().next().value as string);
}

// The project's links (project settings: admins+) ------------------------------------------------

export interface ShareLinkRow {
  id: string;
  view_id: string | null;
  field_ids: string[];
  show_comments: boolean;
  created_at: string;
  revoked_at: string | null;
  creator: { display_name: string } | null;
}

export async function listShareLinks(supabase: SupabaseClient, projectId: string) {
  return supabase
    .from("share_links")
    .select("id, view_id, field_ids, show_comments, created_at, revoked_at, creator:profiles(display_name)")
    .eq("project_id", projectId)
    .order("created_at", { ascending: false })
    .limit(200)
    .returns<ShareLinkRow[]>();
}

/** Makes a link; the secret comes back once, here (no row is read back: the hash is never readable). */
export async function createShareLink(
  supabase: SupabaseClient,
  link: { projectId: string; viewId: string | null; fieldIds: string[]; showComments: boolean },
) {
  const { secret, hash } = newShareSecret();
  const { error } = await supabase.from("share_links").insert({
    project_id: link.projectId,
    view_id: link.viewId,
    field_ids: link.fieldIds,
    show_comments: link.showComments,
    secret_hash: hash,
  });
  return { error, secret: error ? null : secret };
}

/** Revokes a live link: true when it was (false: unknown, already revoked, or not the caller's to revoke). */
export async function revokeShareLink(supabase: SupabaseClient, projectId: string, linkId: string) {
  const { count, error } = await supabase
    .from("share_links")
    .update({ revoked_at: new Date().toISOString() }, { count: "exact" })
    .eq("id", linkId)
    .eq("project_id", projectId)
    .is("revoked_at", null);
  return { error, revoked: (count ?? 0) > 0 };
}
