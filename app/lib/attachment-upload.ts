import { MESSAGES } from "~/lib/messages";

/**
 * One file to /api/attachments from the browser (an XHR, for its upload
 * progress), as the attachments list and the Markdown fields send them.
 * Resolves with the new attachment's id, or the message to show.
 */
export type UploadOutcome = { ok: true; id: string | null } | { ok: false; message: string };

export function uploadAttachment(
  taskId: string,
  file: File,
  onProgress: (loaded: number, total: number) => void,
): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const body = new FormData();
    body.append("taskId", taskId);
    body.append("files", file);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/attachments");
    xhr.setRequestHeader("accept", "application/json");
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.total || file.size);
    xhr.onload = () => {
      let answer: { message?: string | null; ids?: string[] } = {};
      try {
        answer = JSON.parse(xhr.responseText) as typeof answer;
      } catch {
        // not JSON: the status says enough
      }
      if (xhr.status < 300) resolve({ ok: true, id: answer.ids?.[0] ?? null });
      else resolve({ ok: false, message: answer.message ?? "Something went wrong." });
    };
    xhr.onerror = () => resolve({ ok: false, message: MESSAGES.backendDown });
    xhr.send(body);
  });
}
