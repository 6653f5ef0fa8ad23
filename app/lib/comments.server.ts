import type { SupabaseClient } from "./supabase-types";

export interface TaskComment {
  id: string;
  body: string;
  created_at: string;
  edited_at: string | null;
  author_id: string | null;
  author: { display_name: string; avatar_path?: string | null } | null;
}

export async function addComment(supabase: SupabaseClient, taskId: string, body: string) {
  return supabase.from("comments").insert({ task_id: taskId, body }).select("id").single();
}

/** Row-level security lets only the author edit; no row back means it wasn't theirs (or is gone). */
export async function editComment(supabase: SupabaseClient, taskId: string, commentId: string, body: string) {
  return supabase
    .from("comments")
    .update({ body })
    .eq("id", commentId)
    .eq("task_id", taskId)
    .select("id")
    .maybeSingle();
}

export async function deleteComment(supabase: SupabaseClient, taskId: string, commentId: string) {
  return supabase.from("comments").delete().eq("id", commentId).eq("task_id", taskId).select("id").maybeSingle();
}
