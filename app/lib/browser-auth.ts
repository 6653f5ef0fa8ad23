import type { AuthChangeEvent, GoTrueClient as AuthClient, Session } from "@supabase/auth-js";
import type { RealtimeClient } from "@supabase/realtime-js";

/**
 * The one auth client of this tab, created once from the root loader's
 * public env, and imported after hydration so it never delays the first
 * page: every page loads it (~27 KB gzip: supabase.client.ts), for the auth
 * events of docs/product.md §1. Realtime (~17 KB more: realtime.client.ts)
 * is loaded only by the pages that subscribe (live.ts).
 */
export interface BrowserEnv {
  SUPABASE_URL: string;
  SUPABASE_ANON_KEY: string;
}

let clientPromise: Promise<AuthClient> | null = null;
let realtimePromise: Promise<RealtimeClient> | null = null;

export function getBrowserClient(env: BrowserEnv): Promise<AuthClient> {
  clientPromise ??= import("./supabase.client").then(({ createAuthClient }) =>
    createAuthClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY),
  );
  return clientPromise;
}

/** The client if it has been started already (null before hydration or without JavaScript). */
export function startedBrowserClient(): Promise<AuthClient> | null {
  return clientPromise;
}

/** Realtime, bound to this tab's auth client; only live pages call this. */
export function getRealtime(env: BrowserEnv): Promise<RealtimeClient> {
  realtimePromise ??= Promise.all([getBrowserClient(env), import("./realtime.client")]).then(
    ([auth, { createRealtime }]) => createRealtime(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, auth),
  );
  return realtimePromise;
}

/**
 * Realtime, with this person's access token handed to it before a channel
 * joins: a join sent before that would run with the anon key (and see
 * nothing under RLS). Later tokens come through TOKEN_REFRESHED
 * (realtime.client.ts).
 */
export async function withSessionToken(env: BrowserEnv): Promise<RealtimeClient> {
  const [auth, realtime] = await Promise.all([getBrowserClient(env), getRealtime(env)]);
  const { data } = await auth.getSession();
  if (data.session) await realtime.setAuth(data.session.access_token);
  return realtime;
}

export interface AuthEventHandlers {
  /** the user id the server rendered this page for (null when signed out) */
  serverUserId: () => string | null;
  revalidate: () => void;
  navigate: (to: string) => void;
  pathname: () => string;
}

/** Set while this tab's own Log out is under way (until someone signs in again). */
let signingOutHere = false;

const SIGNED_OUT_PAGES = ["/login", "/signup", "/forgot-password", "/auth/"];

/** docs/product.md §1: what every open tab does on each auth event. */
export function handleAuthEvent(event: AuthChangeEvent, session: Session | null, app: AuthEventHandlers) {
  switch (event) {
    case "SIGNED_IN":
      signingOutHere = false;
      // Also fired when the client starts with an existing session; only a change of person needs new data.
      if (session?.user.id !== app.serverUserId()) app.revalidate();
      break;
    case "SIGNED_OUT":
      // this tab's own Log out posts to /logout, which lands on /login saying so: no second navigation
      if (signingOutHere) break;
      // Realtime (when this page loaded it) drops its channels itself: realtime.client.ts
      if (!SIGNED_OUT_PAGES.some((p) => app.pathname().startsWith(p))) app.navigate("/login");
      else if (app.serverUserId()) app.revalidate();
      break;
    case "TOKEN_REFRESHED":
      // passed on to Realtime by realtime.client.ts; the server reads the new cookies
      break;
    case "PASSWORD_RECOVERY":
      app.navigate("/reset-password");
      break;
    case "USER_UPDATED":
      app.revalidate();
      break;
    default:
      break;
  }
}

/**
 * The server signed this browser in (the session is in the cookies already);
 * re-applying the session through the browser client emits SIGNED_IN, which
 * supabase-js also broadcasts to the other tabs.
 */
export async function announceSignIn(client: AuthClient) {
  const { data } = await client.getSession();
  if (!data.session) return;
  await client.setSession({ access_token: data.session.access_token, refresh_token: data.session.refresh_token });
}

/**
 * The server changed this person (a form post in this tab: name, email,
 * avatar); the other tabs hear of it on a BroadcastChannel and reload their
 * data. Not through the auth client (`updateUser({})`, as before): it saves
 * the session it read when it began, and one that finished after the
 * server's next answer put older tokens back into the cookies, whose claims
 * still named the old avatar and whose refresh token was already spent (the
 * flaky avatars e2e of issue 22). This writes nothing and calls no one.
 * One channel object per tab posts and listens: a BroadcastChannel never
 * hears its own messages, so this tab doesn't reload (and use up its flash
 * message) for its own change.
 */
export function announceUserUpdate(): void {
  userChannel()?.postMessage("user-updated");
}

/** Calls `onUpdate` when another tab of this site changed the person; returns the unsubscribe. */
export function onUserUpdateElsewhere(onUpdate: () => void): () => void {
  const channel = userChannel();
  if (!channel) return () => {};
  const listener = (event: MessageEvent) => {
    if (event.data === "user-updated") onUpdate();
  };
  channel.addEventListener("message", listener);
  return () => channel.removeEventListener("message", listener);
}

let channel: BroadcastChannel | null | undefined;
function userChannel(): BroadcastChannel | null {
  if (channel === undefined)
    channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel("teamboard-user");
  return channel;
}

/**
 * Signs this browser out through the browser client so that the other tabs
 * hear SIGNED_OUT (supabase-js tells them over a BroadcastChannel). Returns
 * false when the client isn't running or the backend refused, so the caller
 * falls back to the server's /logout.
 */
export async function signOutInBrowser(scope: "local" | "global"): Promise<boolean> {
  const started = startedBrowserClient();
  if (!started) return false;
  signingOutHere = true;
  try {
    const client = await started;
    const { error } = await client.signOut({ scope });
    return !error;
  } catch {
    return false;
  }
}
