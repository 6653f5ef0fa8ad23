import { Form, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { FormAlert, isFormFailure } from "~/components/form";
import { formatDateTime } from "~/lib/dates";
import { usePageTime } from "~/lib/use-page-time";
import { MESSAGES } from "~/lib/messages";
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENTS_PER_TASK,
  formatBytes,
  tooLargeMessage,
  TOO_MANY_MESSAGE,
} from "~/lib/attachments";
import type { AttachmentView } from "~/lib/attachments.server";

/**
 * The task panel's attachments: the list (name, size, type, uploader, time;
 * downloads and thumbnails through 60-second signed URLs made for this view)
 * and the upload form. Without JavaScript the form posts the chosen files to
 * the task's action. With it, each file goes to /api/attachments on its own
 * with a progress bar, and files dropped anywhere on the panel are attached
 * the same way.
 */
interface Props {
  taskId: string;
  attachments: AttachmentView[];
  userId: string;
  canAttach: boolean;
  canDeleteAny: boolean;
  /** the /attachments route of this task (the panel may be on screen under another child) */
  action: string;
  result: unknown;
}

interface Upload {
  key: string;
  name: string;
  loaded: number;
  total: number;
  error: string | null;
  done: boolean;
}

export function Attachments({ taskId, attachments, userId, canAttach, canDeleteAny, action, result }: Props) {
  const { zone } = usePageTime();
  const failure =
    isFormFailure(result) && (result.intent === "attach" || result.intent?.startsWith("delete-attachment:"))
      ? result
      : null;
  const sectionRef = useRef<HTMLElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dropActive, setDropActive] = useState(false);
  const revalidator = useRevalidator();

  function send(files: File[]) {
    const room = ATTACHMENTS_PER_TASK - attachments.length;
    const batch: Upload[] = files.map((f, i) => ({
      key: `${Date.now()}-${i}-${f.name}`,
      name: f.name,
      loaded: 0,
      total: f.size,
      done: false,
      error: f.size > ATTACHMENT_MAX_BYTES ? tooLargeMessage(f.name) : i >= room ? TOO_MANY_MESSAGE : null,
    }));
    setUploads((current) => [...current.filter((u) => !u.done || u.error), ...batch]);
    const update = (key: string, change: Partial<Upload>) =>
      setUploads((current) => current.map((u) => (u.key === key ? { ...u, ...change } : u)));
    const pending = batch
      .map((upload, i) => ({ upload, file: files[i] }))
      .filter(({ upload }) => !upload.error)
      .map(
        ({ upload, file }) =>
          new Promise<boolean>((resolve) => {
            const body = new FormData();
            body.append("taskId", taskId);
            body.append("files", file);
            const xhr = new XMLHttpRequest();
            xhr.open("POST", "/api/attachments");
            xhr.setRequestHeader("accept", "application/json");
            xhr.upload.onprogress = (e) => update(upload.key, { loaded: e.loaded, total: e.total || upload.total });
            xhr.onload = () => {
              let message: string | null = null;
              try {
                message = (JSON.parse(xhr.responseText) as { message?: string | null }).message ?? null;
              } catch {
                message = xhr.status >= 400 ? "Something went wrong." : null;
              }
              // a finished bar is full: the progress events counted the multipart body, not the file
              update(
                upload.key,
                xhr.status < 300
                  ? { done: true, loaded: 1, total: 1 }
                  : { done: true, error: message ?? "Something went wrong." },
              );
              resolve(xhr.status < 300);
            };
            xhr.onerror = () => {
              update(upload.key, { done: true, error: MESSAGES.backendDown });
              resolve(false);
            };
            xhr.send(body);
          }),
      );
    void Promise.all(pending).then((sent) => {
      // a file that didn't go stays chosen, so "Attach" sends it again; the list reloads only when one went
      if (inputRef.current && sent.every(Boolean)) inputRef.current.value = "";
      if (sent.some(Boolean)) revalidator.revalidate();
    });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const files = [...(inputRef.current?.files ?? [])];
    if (files.length === 0) return; // the server says what is missing
    event.preventDefault();
    send(files);
  }

  // Files dropped anywhere on the task panel are attached.
  useEffect(() => {
    const panel = sectionRef.current?.closest("article") ?? sectionRef.current;
    if (!panel || !canAttach) return;
    const over = (e: DragEvent) => {
      if (!e.dataTransfer?.types.includes("Files")) return;
      e.preventDefault();
      setDropActive(true);
    };
    const leave = (e: DragEvent) => {
      if (e.target === panel) setDropActive(false);
    };
    const drop = (e: DragEvent) => {
      if (!e.dataTransfer?.files.length) return;
      e.preventDefault();
      setDropActive(false);
      send([...e.dataTransfer.files]);
    };
    panel.addEventListener("dragover", over);
    panel.addEventListener("dragleave", leave);
    panel.addEventListener("drop", drop);
    panel.classList.toggle("attachments-drop-active", dropActive);
    return () => {
      panel.removeEventListener("dragover", over);
      panel.removeEventListener("dragleave", leave);
      panel.removeEventListener("drop", drop);
    };
  });

  return (
    <section ref={sectionRef} className="attachments" aria-labelledby="attachments-title">
      <h3 id="attachments-title">Attachments ({attachments.length})</h3>
      {failure?.errors.form ? <FormAlert>{failure.errors.form}</FormAlert> : null}
      {attachments.length === 0 ? <p className="muted">No files yet.</p> : null}
      <ul className="attachments-list">
        {attachments.map((a) => (
          <li key={a.id} data-attachment={a.fileName}>
            {a.url && a.contentType.startsWith("image/") ? (
              <img className="attachment-thumb" src={a.url} alt={`Preview of ${a.fileName}`} width={48} height={48} />
            ) : null}
            <div>
              {a.downloadUrl ? (
                <a href={a.downloadUrl} download={a.fileName}>
                  {a.fileName}
                </a>
              ) : (
                <span>{a.fileName}</span>
              )}
              <div className="muted small">
                {formatBytes(a.sizeBytes)} · {a.contentType} ·{" "}
                {a.uploaderName ?? (a.uploadedBy ? "A former member" : "Deleted user")} ·{" "}
                <time dateTime={a.createdAt}>{formatDateTime(a.createdAt, zone)}</time>
              </div>
            </div>
            {canAttach && (a.uploadedBy === userId || canDeleteAny) ? (
              <Form method="post" action={action} preventScrollReset className="inline-form">
                <input type="hidden" name="intent" value={`delete-attachment:${a.id}`} />
                <button type="submit" className="link-button danger-link" aria-label={`Delete ${a.fileName}`}>
                  Delete
                </button>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>
      {uploads.length > 0 ? (
        <ul className="attachments-list" aria-label="Uploads">
          {uploads.map((u) => (
            <li key={u.key} className="attachment-progress" data-upload={u.name}>
              <span>{u.name}</span>
              {u.error ? (
                <>
                  <span className="field-error" role="alert">
                    {u.error}
                  </span>
                  <button
                    type="button"
                    className="link-button"
                    aria-label={`Dismiss the message about ${u.name}`}
                    onClick={() => setUploads((current) => current.filter((other) => other.key !== u.key))}
                  >
                    Dismiss
                  </button>
                </>
              ) : (
                <progress max={u.total || 1} value={u.loaded} aria-label={`Uploading ${u.name}`}>
                  {Math.round((u.loaded / (u.total || 1)) * 100)}%
                </progress>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {canAttach ? (
        <Form
          method="post"
          action={action}
          encType="multipart/form-data"
          preventScrollReset
          onSubmit={onSubmit}
          className="attach-form"
        >
          <input type="hidden" name="intent" value="attach" />
          <label htmlFor="attach-files">Attach files</label>
          <p className="hint" id="attach-files-hint">
            Up to 10 MB each, {ATTACHMENTS_PER_TASK} per task. You can also drop files onto the task.
          </p>
          <input
            ref={inputRef}
            id="attach-files"
            name="files"
            type="file"
            multiple
            aria-describedby={failure?.errors.files ? "attach-files-error attach-files-hint" : "attach-files-hint"}
            aria-invalid={failure?.errors.files ? true : undefined}
            autoFocus={Boolean(failure?.errors.files) || undefined}
          />
          {failure?.errors.files ? (
            <p className="field-error" id="attach-files-error">
              {failure.errors.files}
            </p>
          ) : null}
          <button type="submit" className="button button-small">
            Attach
          </button>
        </Form>
      ) : null}
    </section>
  );
}
