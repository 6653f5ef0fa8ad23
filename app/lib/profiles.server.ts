import type { SupabaseClient } from "@supabase/supabase-js";

export interface Profile {
  id: string;
  username: string | null;
  display_name: string | null;
  avatar_path: string | null;
}

/** The signed-in person's own profile row (row-level security lets them read and update it). */
export async function getProfile(supabase: SupabaseClient, userId: string) {
  return supabase.from("profiles").select("id, username, display_name, avatar_path").eq("id", userId).maybeSingle<Profile>();
}

export async function updateProfile(supabase: SupabaseClient, userId: string, changes: { display_name: string; username: string | null }) {
  return supabase.from("profiles").update(changes).eq("id", userId).select("id").single();
}

/** Postgres unique violation on the username column. */
export function isUsernameTaken(error: { code?: string; message?: string; details?: string } | null): boolean {
  return error?.code === "23505" && /username/i.test(`${error.message ?? ""} ${error.details ?? ""}`);
}
