import type { ActionFunctionArgs } from "@remix-run/node";
import { attachFiles } from "~/lib/attachments.server";
import { ATTACH_API_MAX_BODY_BYTES, ATTACH_API_TOO_LARGE } from "~/lib/body-limits.server";
import { getUser, needsSecondFactor } from "~/lib/auth.server";
import { MESSAGES } from "~/lib/messages";
import { chosenFiles } from "~/lib/storage.server";
import { requestClient } from "~/lib/supabase.server";

/**
 * One file at a time from the task panel's script (so each file gets its own
 * progress bar): POST multipart {taskId, file} → JSON `{ ok, message }` with
 * a status that says what happened; never a redirect, which the script's
 * request would follow to a page and read as a success. Row-level security
 * and the bucket's policies decide who may attach; the panel's own form does
 * the same without JavaScript. A resource route answers with a Response of
 * its own: Remix would send what data() holds with 200 whatever its status.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const answer = (status: number, message: string | null) => Response.json({ ok: status < 300, message }, { status });

export async function action({ request }: ActionFunctionArgs) {
  const user = await getUser().catch((thrown: unknown) => {
    // the backend is down or this request was shed: the same answer, in JSON
    if (thrown instanceof Response && thrown.status === 503) return "unavailable" as const;
    throw thrown;
  });
  if (user === "unavailable") return answer(503, MESSAGES.backendDown);
  if (!user) return answer(401, "Your session has ended. Log in again, then attach the file.");
  if (needsSecondFactor(user)) return answer(403, "Enter the code from your authenticator app first, then try again.");
  if (Number(request.headers.get("content-length") ?? 0) > ATTACH_API_MAX_BODY_BYTES) {
    return answer(400, ATTACH_API_TOO_LARGE);
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return answer(400, "The upload arrived incomplete or garbled. Try again.");
  }
  const taskId = String(form.get("taskId") ?? "");
  if (!UUID.test(taskId)) return answer(404, "Not found");
  const result = await attachFiles(requestClient(), taskId, chosenFiles(form, "files"));
  if (result.ok) return Response.json({ ok: true, message: null, ids: result.ids });
  if (result.status === 503) console.error("[attachments] upload failed:", result.message);
  return answer(result.status, result.status === 503 ? MESSAGES.backendDown : result.message);
}
