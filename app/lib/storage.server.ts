import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { env } from "./env.server";

/**
 * Server-side storage chores. Storage tables refuse plain DELETEs (hosted and
 * local alike), so when an attachments row or a profile's avatar goes — by a
 * person, or with its task, project, team or account — a trigger queues the
 * file in `storage_cleanup`, and the server removes the queued files through
 * the Storage API with the service role (which never leaves the server).
 */
let admin: SupabaseClient | null = null;

export function adminClient(): SupabaseClient | null {
  if (!env.SUPABASE_SERVICE_ROLE_KEY) return null;
  admin ??= createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
  return admin;
}

let warned = false;

/** Removes the files queued for removal (a batch at a time). Failures are logged, never shown: the queue keeps them. */
export async function removeQueuedFiles(): Promise<void> {
  const client = adminClient();
  if (!client) {
    if (!warned) console.warn("[storage] SUPABASE_SERVICE_ROLE_KEY is not set: removed files stay in storage_cleanup");
    warned = true;
    return;
  }
  try {
    for (let round = 0; round < 10; round++) {
      const { data, error } = await client
        .from("storage_cleanup")
        .select("bucket_id, object_path")
        .order("queued_at")
        .limit(100);
      if (error || !data || data.length === 0) return;
      const buckets = new Map<string, string[]>();
      for (const row of data) buckets.set(row.bucket_id, [...(buckets.get(row.bucket_id) ?? []), row.object_path]);
      for (const [bucket, paths] of buckets) {
        const removed = await client.storage.from(bucket).remove(paths);
        if (removed.error) return console.error("[storage] could not remove queued files:", removed.error.message);
        const { error: dequeueError } = await client
          .from("storage_cleanup")
          .delete()
          .eq("bucket_id", bucket)
          .in("object_path", paths);
        if (dequeueError) return console.error("[storage] could not dequeue removed files:", dequeueError.message);
      }
      if (data.length < 100) return;
    }
  } catch (error) {
    console.error("[storage] removing queued files failed:", error);
  }
}

/** A file field of a multipart form: a File with a name and some bytes, or null when none was chosen. */
export function chosenFiles(form: FormData, name: string): File[] {
  return form
    .getAll(name)
    .filter((v): v is File => typeof v === "object" && v !== null && "arrayBuffer" in v && v.size > 0 && v.name !== "");
}
