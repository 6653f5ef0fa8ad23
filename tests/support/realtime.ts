import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import ws from "ws";
import type { TestStack } from "./stack.ts";

/**
 * Helpers for the Realtime integration tests: people with their own access
 * tokens and supabase-js clients (the `ws` transport, as Node 20 has no
 * WebSocket), a team with a project, and waiting for what a channel receives.
 */
export interface Person {
  id: string;
  email: string;
  token: string;
  client: SupabaseClient;
}

export function clientFor(
  stack: TestStack,
  token: string | null,
  options: { vsn?: "1.0.0" | "2.0.0" } = {},
): SupabaseClient {
  const client = createClient(stack.url, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
    realtime: { transport: ws as unknown as typeof WebSocket, ...(options.vsn ? { vsn: options.vsn } : {}) },
  });
  if (token) void client.realtime.setAuth(token);
  return client;
}

let people = 0;

export async function makePerson(
  stack: TestStack,
  name: string,
  options: { expiresIn?: number; vsn?: "1.0.0" | "2.0.0" } = {},
): Promise<Person> {
  const email = `${name}-${++people}-${Date.now()}@realtime.test`;
  const { rows } = await stack.db.query<{ id: string }>(
    `insert into auth.users (id, email, aud, role, raw_user_meta_data, email_confirmed_at, created_at, updated_at)
     values (gen_random_uuid(), $1, 'authenticated', 'authenticated', jsonb_build_object('display_name', $2::text), now(), now(), now())
     returning id`,
    [email, name],
  );
  const id = rows[0].id;
  const token = await tokenFor(stack, id, email, options.expiresIn ?? 3600);
  return { id, email, token, client: clientFor(stack, token, { vsn: options.vsn }) };
}

export function tokenFor(stack: TestStack, id: string, email: string, expiresIn: number): Promise<string> {
  return stack.keys.sign({ sub: id, role: "authenticated", aud: "authenticated", email }, { expiresIn });
}

/** A team with these members (role per person) and one project; returns their ids. */
export async function makeTeam(stack: TestStack, members: [Person, "owner" | "admin" | "member" | "viewer"][]) {
  return stack.db.transaction(async (tx) => {
    const slug = `rt-${Math.random().toString(36).slice(2, 10)}`;
    const team = (
      await tx.query<{ id: string }>(
        "insert into teams (name, slug, created_by) values ('Realtime', $1, $2) returning id",
        [slug, members[0][0].id],
      )
    ).rows[0].id;
    for (const [person, role] of members) {
      await tx.query("insert into team_members (team_id, user_id, role) values ($1, $2, $3)", [team, person.id, role]);
    }
    const project = (
      await tx.query<{ id: string }>(
        "insert into projects (team_id, key, name) values ($1, 'RT', 'Live') returning id",
        [team],
      )
    ).rows[0].id;
    return { team, project };
  });
}

/** Subscribes and resolves once the server confirmed (SUBSCRIBED), rejects on CHANNEL_ERROR / TIMED_OUT. */
export function subscribed(channel: RealtimeChannel, timeoutMs = 5000): Promise<RealtimeChannel> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no SUBSCRIBED for ${channel.topic} in ${timeoutMs} ms`)),
      timeoutMs,
    );
    channel.subscribe((status, error) => {
      if (status === "SUBSCRIBED") {
        clearTimeout(timer);
        resolve(channel);
      } else if (status === "CHANNEL_ERROR" || status === "TIMED_OUT") {
        clearTimeout(timer);
        reject(Object.assign(new Error(`${status}: ${error?.message ?? ""}`), { status, cause: error }));
      }
    });
  });
}

/** Collects what arrives, and waits for it. */
export class Inbox<T> {
  items: T[] = [];
  private waiters: { predicate: (items: T[]) => boolean; resolve: () => void }[] = [];

  push = (item: T) => {
    this.items.push(item);
    this.waiters = this.waiters.filter((w) => {
      if (!w.predicate(this.items)) return true;
      w.resolve();
      return false;
    });
  };

  /** Waits until `predicate` holds for what has arrived (default: at least `count` items). */
  async until(predicate: number | ((items: T[]) => boolean), timeoutMs = 5000): Promise<T[]> {
    const test = typeof predicate === "number" ? (items: T[]) => items.length >= predicate : predicate;
    if (test(this.items)) return this.items;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting; got ${JSON.stringify(this.items).slice(0, 500)}`)),
        timeoutMs,
      );
      this.waiters.push({
        predicate: test,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
    return this.items;
  }

  clear() {
    this.items = [];
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
