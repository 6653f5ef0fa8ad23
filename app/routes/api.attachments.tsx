import type { ActionFunctionArgs } from "@remix-run/node";
import { BACKEND_DOWN } from "~/lib/attachment-upload";
import { attachFiles } from "~/lib/attachments.server";
import { requireUser } from "~/lib/auth.server";
import { chosenFiles } from "~/lib/storage.server";
import { requestClient } from "~/lib/supabase.server";

/**
 * One file at a time from the task panel's script (so each file gets its own
 * progress bar): POST multipart {taskId, file} → JSON. Row-level security and
 * the bucket's policies decide who may attach; the panel's own form does the
 * same without JavaScript. A resource route answers with a Response of its
 * own: Remix would send what data() holds with 200 whatever its status, and
 * the script tells a failed upload by its status.
 */
const MAX_BODY_BYTES = 11 * 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function action({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  await requireUser(request);
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) {
    return Response.json({ ok: false, message: "The file is larger than 10 MB." }, { status: 400 });
  }
  const form = await request.formData();
  const taskId = String(form.get("taskId") ?? "");
  if (!UUID.test(taskId)) return Response.json({ ok: false, message: "Not found" }, { status: 404 });
  const result = await attachFiles(supabase, taskId, chosenFiles(form, "files"));
  if (!result.ok) {
    if (result.status === 503) console.error("[attachments] upload failed:", result.message);
    const message = result.status === 503 ? BACKEND_DOWN : result.message;
    return Response.json({ ok: false, message }, { status: result.status });
  }
  return Response.json({ ok: true, message: null, ids: result.ids });
}
