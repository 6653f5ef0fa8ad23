import crypto from "node:crypto";
import type { SupabaseClient } from "./supabase-types";
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENTS_PER_TASK,
  safeObjectName,
  SIGNED_URL_SECONDS,
  TOO_MANY_MESSAGE,
  tooLargeMessage,
} from "./attachments";
import { ATTACH_FORM_MAX_FILES_BYTES, ATTACH_FORM_TOO_LARGE } from "./body-limits.server";
import { sniffImage } from "./image-bytes.server";
import { storageStatus } from "./profiles.server";
import { removeQueuedFiles } from "./storage.server";
import { FORBIDDEN_MESSAGE } from "./permissions";

/**
 * Task attachments: an object in bucket `attachments` under `<task id>/` and
 * a row in `attachments` that describes it. They stay in step:
 *   - upload: the object first (the person's own client, so the bucket's
 *     policies decide), then the row; if the row is refused (the 20-file cap,
 *     a role change) the object is removed again. A row never points at a
 *     missing object; an object without a row is never listed.
 *   - delete (the row, or its task / project / team): the database queues the
 *     object, and the server removes queued objects through the Storage API.
 */
export interface AttachmentView {
  id: string;
  fileName: string;
  sizeBytes: number;
  contentType: string;
  uploadedBy: string | null;
  uploaderName: string | null;
  createdAt: string;
  /** 60-second signed URLs made for this view: inline (thumbnails) and as a download with the file's name */
  url: string | null;
  downloadUrl: string | null;
}

interface Row {
  id: string;
  object_path: string;
  file_name: string;
  size_bytes: number;
  content_type: string;
  uploaded_by: string | null;
  created_at: string;
  uploader: { display_name: string } | null;
}

/** An attachment's row as read (the task panel's `task_panel` function returns these). */
export type AttachmentRow = Row;

/** The rows as the panel shows them, with signed URLs made in one Storage request (none when there are no rows). */
export async function signAttachments(supabase: SupabaseClient, rows: Row[]): Promise<AttachmentView[]> {
  const signed = rows.length
    ? await supabase.storage.from("attachments").createSignedUrls(
        rows.map((r) => r.object_path),
        SIGNED_URL_SECONDS,
      )
    : { data: [], error: null };
  const urls = new Map((signed.data ?? []).map((s) => [s.path, s.signedUrl]));
  return rows.map((r): AttachmentView => {
    const url = urls.get(r.object_path) ?? null;
    return {
      id: r.id,
      fileName: r.file_name,
      sizeBytes: Number(r.size_bytes),
      contentType: r.content_type,
      uploadedBy: r.uploaded_by,
      uploaderName: r.uploader?.display_name ?? null,
      createdAt: r.created_at,
      url,
      downloadUrl: url ? `${url}&download=${encodeURIComponent(r.file_name)}` : null,
    };
  });
}

export type AttachResult =
  { ok: true; count: number; ids: string[] } | { ok: false; status: number; message: string; field: "files" | "form" };

/** Attaches files to a task, one after the other; stops at the first refusal (files before it stay attached). */
export async function attachFiles(supabase: SupabaseClient, taskId: string, files: File[]): Promise<AttachResult> {
  if (files.length === 0)
    return { ok: false, status: 400, field: "files", message: "Choose one or more files to attach." };
  const tooBig = files.find((f) => f.size > ATTACHMENT_MAX_BYTES);
  if (tooBig) return { ok: false, status: 400, field: "files", message: tooLargeMessage(tooBig.name) };
  const { count, error: countError } = await supabase
    .from("attachments")
    .select("id", { count: "exact", head: true })
    .eq("task_id", taskId);
  if (countError) return { ok: false, status: 503, field: "form", message: countError.message };
  if ((count ?? 0) + files.length > ATTACHMENTS_PER_TASK)
    return { ok: false, status: 400, field: "files", message: TOO_MANY_MESSAGE };

  const ids: string[] = [];
  for (const file of files) {
    const objectPath = `${taskId}/${crypto.randomUUID()}-${safeObjectName(file.name)}`;
    const contentType = storedType(file.type, new Uint8Array(await file.arrayBuffer()));
    // storage-js sends a Blob's own type, so the bytes go as a Blob of the type they were found to have
    const body = file.slice(0, file.size, contentType);
    const uploaded = await supabase.storage.from("attachments").upload(objectPath, body, { contentType });
    if (uploaded.error) return uploadRefusal(uploaded.error, file.name);
    const { data: row, error } = await supabase
      .from("attachments")
      .insert({
        task_id: taskId,
        object_path: objectPath,
        file_name: file.name.slice(0, 255) || "file",
        size_bytes: file.size,
        content_type: contentType.slice(0, 255),
      })
      .select("id")
      .single();
    if (error) {
      // the row was refused: take the object back so nothing is stored without its row
      await supabase.storage.from("attachments").remove([objectPath]);
      if (error.code === "23514" && /at most 20/.test(error.message))
        return { ok: false, status: 400, field: "files", message: TOO_MANY_MESSAGE };
      if (error.code === "42501") return { ok: false, status: 403, field: "form", message: FORBIDDEN_MESSAGE };
      return { ok: false, status: 503, field: "form", message: error.message };
    }
    ids.push(row.id);
  }
  // an upload may have queued files left behind in the task's folder (a database trigger does)
  await removeQueuedFiles();
  return { ok: true, count: ids.length, ids };
}

/**
 * The type an attachment is stored (and later shown) as. Its bytes decide
 * whether it is a PNG, JPEG, GIF or WebP picture (the panel shows those as
 * pictures): a file that merely claims to be one is stored as plain bytes,
 * and a real one sent without a type, or with another, as what it is. Other
 * files keep their declared type.
 */
export function storedType(declared: string, bytes: Uint8Array): string {
  const image = sniffImage(bytes);
  if (image) return image.type;
  if (!declared || PICTURE_TYPES.has(declared.toLowerCase())) return "application/octet-stream";
  return declared;
}
const PICTURE_TYPES = new Set(["image/png", "image/jpeg", "image/jpg", "image/gif", "image/webp"]);

/**
 * What Storage's refusal of an upload means for the person: too large, too
 * many (the folder's cap, migration …_storage_folder_limits.sql), not their
 * role, or another refusal with Storage's own words. Only a failure on the
 * backend's side (or no answer) is "can't reach the backend".
 */
function uploadRefusal(error: unknown, fileName: string): AttachResult {
  const status = storageStatus(error);
  const message = (error as { message?: string }).message ?? "";
  if (status === 413) return { ok: false, status: 400, field: "files", message: tooLargeMessage(fileName) };
  if (/at most 20/.test(message)) return { ok: false, status: 400, field: "files", message: TOO_MANY_MESSAGE };
  if (status === 401 || status === 403) return { ok: false, status: 403, field: "form", message: FORBIDDEN_MESSAGE };
  if (status >= 400 && status < 500) return { ok: false, status: 400, field: "files", message };
  return { ok: false, status: 503, field: "form", message };
}

/** Deletes one attachment (row-level security decides who may); its object follows through the cleanup queue. */
export async function deleteAttachment(supabase: SupabaseClient, taskId: string, attachmentId: string) {
  const { data, error } = await supabase
    .from("attachments")
    .delete()
    .eq("task_id", taskId)
    .eq("id", attachmentId)
    .select("id");
  if (!error) await removeQueuedFiles();
  return { deleted: (data ?? []).length > 0, error };
}

/** The task route's attachment intents, kept here so the route stays short. */
export const attachmentIntent = {
  bodyTooLarge(request: Request): string | null {
    // the most a no-JavaScript attach form may send at once (several files of up to 10 MB; body-limits.server)
    return Number(request.headers.get("content-length") ?? 0) > ATTACH_FORM_MAX_FILES_BYTES
      ? ATTACH_FORM_TOO_LARGE
      : null;
  },
  async run(
    supabase: SupabaseClient,
    taskId: string,
    intent: string,
    form: FormData,
  ): Promise<{ ok: true; message: string } | { ok: false; status: number; field: string; message: string }> {
    if (intent === "attach") {
      const files = form
        .getAll("files")
        .filter((v): v is File => typeof v === "object" && v !== null && v.size > 0 && v.name !== "");
      const result = await attachFiles(supabase, taskId, files);
      if (!result.ok) return result;
      return {
        ok: true,
        message: result.count === 1 ? "The file is attached." : `${result.count} files are attached.`,
      };
    }
    const id = intent.slice("delete-attachment:".length);
    if (!/^[0-9a-f-]{36}$/i.test(id)) return { ok: false, status: 404, field: "form", message: "Not found" };
    const { deleted, error } = await deleteAttachment(supabase, taskId, id);
    if (error) return { ok: false, status: 503, field: "form", message: error.message };
    if (!deleted) return { ok: false, status: 403, field: "form", message: FORBIDDEN_MESSAGE };
    return { ok: true, message: "The file is deleted." };
  },
};
