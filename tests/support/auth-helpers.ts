import crypto from "node:crypto";
import { createClient, type SupabaseClient, type SupabaseClientOptions } from "@supabase/supabase-js";
import ws from "ws";

/**
 * Helpers for the auth service's integration tests (and the web app's):
 * read the local inbox through its Mailpit API, pull links and codes out of
 * an email, and make supabase-js clients that behave like a browser's
 * (PKCE, a storage of their own).
 */
export interface InboxMessage {
  ID: string;
  Subject: string;
  Text: string;
  HTML: string;
  To: { Name: string; Address: string }[];
}

export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${crypto.randomBytes(5).toString("hex")}@example.test`;
}

export async function messagesTo(baseUrl: string, address: string): Promise<InboxMessage[]> {
  const search = await fetch(`${baseUrl}/inbox/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`);
  const list = (await search.json()) as { messages: { ID: string }[] };
  const out: InboxMessage[] = [];
  for (const m of list.messages) {
    const res = await fetch(`${baseUrl}/inbox/api/v1/message/${m.ID}`);
    out.push((await res.json()) as InboxMessage);
  }
  return out;
}

/** The newest message to `address`; throws when there is none. */
export async function latestMessage(baseUrl: string, address: string): Promise<InboxMessage> {
  const [first] = await messagesTo(baseUrl, address);
  if (!first) throw new Error(`no email to ${address}`);
  return first;
}

/** The URLs in a message's text part. */
export function linksIn(message: InboxMessage): string[] {
  return [...message.Text.matchAll(/https?:\/\/[^\s)]+/g)].map((m) => m[0]);
}

/** The app link's token_hash and type (from {{ .SiteURL }}/auth/confirm?token_hash=…&type=…). */
export function confirmParams(message: InboxMessage): { tokenHash: string; type: string; next: string | null } {
  const link = linksIn(message).find((l) => l.includes("token_hash="));
  if (!link) throw new Error(`no token_hash link in "${message.Subject}"`);
  const u = new URL(link);
  return {
    tokenHash: u.searchParams.get("token_hash") ?? "",
    type: u.searchParams.get("type") ?? "",
    next: u.searchParams.get("next"),
  };
}

export function codeIn(message: InboxMessage): string {
  const m = /code:\s*(\d{6})/.exec(message.Text);
  if (!m) throw new Error(`no code in "${message.Subject}"`);
  return m[1];
}

export function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

// Node 20 has no global WebSocket; supabase-js's realtime client needs one at construction.
const realtime = { transport: ws } as unknown as SupabaseClientOptions<"public">["realtime"];

/** A client like the app's browser client: PKCE flow, its own storage, no timers. */
export function browserLikeClient(
  url: string,
  anonKey: string,
  flowType: "pkce" | "implicit" = "pkce",
): SupabaseClient {
  return createClient(url, anonKey, {
    auth: {
      flowType,
      storage: memoryStorage(),
      persistSession: true,
      autoRefreshToken: false,
      detectSessionInUrl: false,
    },
    realtime,
  });
}

/** A server-side client (no stored session), e.g. with the anon or the service role key. */
export function serverClient(url: string, key: string): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime,
  });
}
