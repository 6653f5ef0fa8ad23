import type { SupabaseClient } from "@supabase/supabase-js";

export interface TaskComment {
  id: string;
  body: string;
  created_at: string;
  edited_at: string | null;
  author_id: string | null;
  author: { display_name: string } | null;
}

export const COMMENTS_PAGE_SIZE = 200;

/** Oldest first, like a conversation; a task with more than a page shows the latest page. */
export async function listComments(supabase: SupabaseClient, taskId: string) {
  const { data, error, count } = await supabase
    .from("comments")
    .select("id, body, created_at, edited_at, author_id, author:profiles(display_name)", { count: "exact" })
    .eq("task_id", taskId)
    .order("created_at", { ascending: false })
    .limit(COMMENTS_PAGE_SIZE)
    .returns<TaskComment[]>();
  return { error, comments: (data ?? []).reverse(), total: count ?? 0 };
}

export async function addComment(supabase: SupabaseClient, taskId: string, body: string) {
  return supabase.from("comments").insert({ task_id: taskId, body }).select("id").single();
}

/** Row-level security lets only the author edit; no row back means it wasn't theirs (or is gone). */
export async function editComment(supabase: SupabaseClient, taskId: string, commentId: string, body: string) {
  return supabase.from("comments").update({ body }).eq("id", commentId).eq("task_id", taskId).select("id").maybeSingle();
}

export async function deleteComment(supabase: SupabaseClient, taskId: string, commentId: string) {
  return supabase.from("comments").delete().eq("id", commentId).eq("task_id", taskId).select("id").maybeSingle();
}
