import { Form, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { FormAlert, isFormFailure } from "~/components/form";
import { formatDateTime } from "~/lib/dates";
import { usePageTime } from "~/lib/use-page-time";
import {
  attachmentImageSrc,
  attachmentPath,
  isPreviewableImage,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENTS_PER_TASK,
  formatBytes,
  tooLargeMessage,
  TOO_MANY_MESSAGE,
} from "~/lib/attachments";
import type { AttachmentView } from "~/lib/attachments.server";
import { UploadProgress, type UploadState } from "~/components/upload-progress";
import { uploadAttachment } from "~/lib/attachment-upload";

/**
 * The task panel's attachments: the list (name, size, type, uploader, time;
 * downloads through 60-second signed URLs made for this view; pictures as
 * thumbnails from Storage's image transformation, through /attachments/<id>)
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

interface Upload extends UploadState {
  key: string;
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
      .map(({ upload, file }) =>
        uploadAttachment(taskId, file, (loaded, total) => update(upload.key, { loaded, total })).then((outcome) => {
          // a finished bar is full: the progress events counted the multipart body, not the file
          update(upload.key, outcome.ok ? { done: true, loaded: 1, total: 1 } : { done: true, error: outcome.message });
          return outcome.ok;
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

  // A file that went is in the list once it reloads: its bar goes then (a failed one's message stays until dismissed).
  useEffect(() => {
    setUploads((current) => {
      const kept = current.filter((u) => !u.done || u.error);
      return kept.length === current.length ? current : kept;
    });
  }, [attachments]);

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
            {isPreviewableImage(a.contentType) ? (
              // the thumbnail comes from Storage's image transformation; a click opens the full picture
              <a href={attachmentPath(a.id)} className="attachment-thumb-link" aria-label={`Open ${a.fileName}`}>
                <img
                  className="attachment-thumb"
                  src={attachmentImageSrc(a.id, "thumb")}
                  alt={`Preview of ${a.fileName}`}
                  width={48}
                  height={48}
                />
              </a>
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
      <UploadProgress
        uploads={uploads}
        label="Uploads"
        dismiss={(key) => setUploads((current) => current.filter((other) => other.key !== key))}
      />
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
