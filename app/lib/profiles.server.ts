import crypto from "node:crypto";
import type { TablesUpdate } from "./database.types";
import type { SupabaseClient } from "./supabase-types";
import { AVATAR_SIZE_MESSAGE, AVATAR_TYPE_MESSAGE, AVATAR_TYPES, avatarProblem } from "./avatars";
import { sniffImageFile } from "./image-bytes.server";
import { removeQueuedFiles } from "./storage.server";

export interface Profile {
  id: string;
  username: string | null;
  display_name: string | null;
  avatar_path: string | null;
  time_zone: string;
}

/** The signed-in person's own profile row (row-level security lets them read and update it). */
export async function getProfile(supabase: SupabaseClient, userId: string) {
  return supabase
    .from("profiles")
    .select("id, username, display_name, avatar_path, time_zone")
    .eq("id", userId)
    .maybeSingle<Profile>();
}

/** Postgres unique violation on the username column. */
export function isUsernameTaken(error: { code?: string; message?: string; details?: string } | null): boolean {
  return error?.code === "23505" && /username/i.test(`${error.message ?? ""} ${error.details ?? ""}`);
}

type SaveResult =
  | { field: "avatar"; message: string; error?: undefined }
  | { field?: undefined; error: { code?: string; message?: string; details?: string; status?: number } | null };

/** A storage error from storage-js: the HTTP status plus Storage's own (413, 415, …) in `statusCode`. */
export function storageStatus(error: unknown): number {
  const e = error as { statusCode?: string; status?: number };
  return Number(e?.statusCode ?? e?.status ?? 0);
}

/**
 * Saves the profile form: the new avatar (if one was chosen) is checked by
 * its bytes (a file renamed .png is refused, whatever its declared type), and
 * uploaded first, with the person's own client, to a fresh name in their
 * folder, with the type its bytes have; then
 * the row points at it. If the row can't be saved the new file is removed;
 * the replaced file is queued by the database and removed by the server.
 */
export async function saveProfile(
  supabase: SupabaseClient,
  userId: string,
  /** no `username`: the saved one stays (the column is not null; every profile has one) */
  input: { displayName: string; username: string | undefined; avatar: File | null; timeZone: string | undefined },
): Promise<SaveResult> {
  let avatarPath: string | undefined;
  if (input.avatar) {
    const problem = avatarProblem(input.avatar);
    if (problem) return { field: "avatar", message: problem };
    const image = await sniffImageFile(input.avatar);
    if (!image) return { field: "avatar", message: AVATAR_TYPE_MESSAGE };
    avatarPath = `${userId}/${crypto.randomUUID()}.${AVATAR_TYPES[image.type]}`;
    const { error } = await supabase.storage
      .from("avatars")
      // storage-js sends a Blob's own type: the bytes go as a Blob of the type they were found to have
      .upload(avatarPath, input.avatar.slice(0, input.avatar.size, image.type), {
        contentType: image.type,
        cacheControl: "31536000",
      });
    if (error) {
      const status = storageStatus(error);
      if (status === 413) return { field: "avatar", message: AVATAR_SIZE_MESSAGE };
      if (status === 415) return { field: "avatar", message: AVATAR_TYPE_MESSAGE };
      return { error: { message: error.message, status: status >= 400 && status < 500 ? status : 503 } };
    }
  }
  const changes: TablesUpdate<"profiles"> = { display_name: input.displayName };
  if (input.username) changes.username = input.username;
  if (avatarPath) changes.avatar_path = avatarPath;
  const { error } = await supabase.from("profiles").update(changes).eq("id", userId).select("id").single();
  if (error) {
    if (avatarPath) await supabase.storage.from("avatars").remove([avatarPath]);
    return { error };
  }
  // the zone lives in the metadata (every token carries it); a trigger copies it into the profile
  const meta: Record<string, string> = { display_name: input.displayName };
  if (avatarPath) meta.avatar_path = avatarPath;
  if (input.timeZone) meta.time_zone = input.timeZone;
  const updated = await supabase.auth.updateUser({ data: meta });
  if (updated.error && input.timeZone)
    return { error: { message: updated.error.message, status: updated.error.status } };
  if (avatarPath) await removeQueuedFiles();
  return { error: null };
}

export async function removeAvatar(supabase: SupabaseClient, userId: string) {
  const { error } = await supabase
    .from("profiles")
    .update({ avatar_path: null })
    .eq("id", userId)
    .select("id")
    .single();
  if (error) return { error };
  await supabase.auth.updateUser({ data: { avatar_path: null } });
  await removeQueuedFiles();
  return { error: null };
}
