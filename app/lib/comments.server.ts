import type { SupabaseClient } from "./supabase-types";
import { quoteFilterValue } from "./board.server";
import { COMMENTS_PAGE_SIZE, type CommentCursor } from "./comments";

export interface TaskComment {
  id: string;
  body: string;
  created_at: string;
  edited_at: string | null;
  author_id: string | null;
  author: { display_name: string; avatar_path?: string | null } | null;
}

/**
 * One page of a task's comments, oldest first like a conversation: the latest
 * page, or the page just before `before`. One request: newest first by
 * (created_at, id) — comments written in one transaction share created_at,
 * so the id keeps the order total — with an exact count of the comments it
 * reaches back over (all of them on the latest page), which says whether
 * older ones exist. The count only touches this task's comments (indexed by
 * task_id, created_at).
 */
export async function listComments(supabase: SupabaseClient, taskId: string, before: CommentCursor | null = null) {
  let query = supabase
    .from("comments")
    .select("id, body, created_at, edited_at, author_id, author:profiles(display_name, avatar_path)", {
      count: "exact",
    })
    .eq("task_id", taskId);
  if (before) {
    const at = quoteFilterValue(before.createdAt);
    query = query.or(`created_at.lt.${at},and(created_at.eq.${at},id.lt.${before.id})`);
  }
  const { data, error, count } = await query
    .order("created_at", { ascending: false })
    .order("id", { ascending: false })
    .limit(COMMENTS_PAGE_SIZE)
    .returns<TaskComment[]>();
  const comments = (data ?? []).reverse();
  const reached = count ?? comments.length;
  return { error, comments, reached, hasOlder: reached > comments.length };
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
