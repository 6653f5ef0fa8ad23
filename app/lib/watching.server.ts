import type { SupabaseClient } from "./supabase-types";

/**
 * Watch / Stop watching a task (docs/product.md §10): each person's own row in
 * task_watchers, which row-level security lets them add for a task they can
 * read and remove. Watching again is no error.
 */
export async function setWatching(supabase: SupabaseClient, taskId: string, userId: string, watch: boolean) {
  if (watch) {
    return supabase
      .from("task_watchers")
      .upsert({ task_id: taskId, user_id: userId }, { onConflict: "task_id,user_id", ignoreDuplicates: true });
  }
  return supabase.from("task_watchers").delete().eq("task_id", taskId).eq("user_id", userId);
}
