import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { TextAreaField } from "~/components/form";
import { RichText } from "~/components/rich-text";
import { UploadProgress, type UploadState } from "~/components/upload-progress";
import { uploadAttachment } from "~/lib/attachment-upload";
import { ATTACHMENT_MAX_BYTES, attachmentMarkdown, isPreviewableImage, tooLargeMessage } from "~/lib/attachments";

/**
 * A Markdown text field (a description or a comment) with "Preview".
 * Without JavaScript, Preview posts the form to its own action, which sends
 * the same form back with the rendered text and every value kept
 * (`preview`). With it, the text is rendered by /api/preview and shown in
 * place. With JavaScript and a task to attach to, an image pasted or dropped
 * into the field is uploaded as an attachment (progress shown) and its
 * Markdown inserted where the cursor is.
 */
interface Props {
  name: string;
  label: string;
  hint?: string;
  maxLength: number;
  rows: number;
  value: string | undefined;
  error: string | undefined;
  /** the rendered preview the action sent back (no JavaScript) */
  preview: string | null | undefined;
  /** the team whose tasks and people the text may refer to */
  team: string;
  /** the task a pasted or dropped picture is attached to (none on the new-task form) */
  attachTo?: string;
}

/** The preview an action sent back (no JavaScript) for this form's field, if any. */
export function previewOf(result: unknown, intent: string | undefined, field: string): string | null {
  const answer = result as { intent?: string; preview?: { field: string; html: string } } | undefined;
  if (!answer?.preview || answer.preview.field !== field) return null;
  return intent === undefined || answer.intent === intent ? answer.preview.html : null;
}

export const MARKDOWN_HINT = "Markdown: **bold**, _italic_, `code`, lists, tables, links, KEY-12, @username.";

export function MarkdownField({ name, label, hint, maxLength, rows, value, error, preview, team, attachTo }: Props) {
  const wrapper = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState<string | null>(preview ?? null);
  const [uploads, setUploads] = useState<UploadState[]>([]);
  const revalidator = useRevalidator();
  useEffect(() => setShown(preview ?? null), [preview]);

  const textarea = () => wrapper.current?.querySelector("textarea") ?? null;

  async function showPreview(event: React.MouseEvent<HTMLButtonElement>) {
    const field = textarea();
    if (!field) return;
    event.preventDefault();
    const body = new FormData();
    body.set("text", field.value);
    body.set("team", team);
    try {
      const res = await fetch("/api/preview", { method: "POST", body, headers: { accept: "application/json" } });
      const answer = (await res.json()) as { html: string | null };
      setShown(answer.html ?? "");
    } catch {
      // no answer: submit the form the way it works without JavaScript
      event.currentTarget.form?.requestSubmit(event.currentTarget);
    }
  }

  // pasted or dropped pictures (native listeners, so the panel's own drop target doesn't take them too)
  useEffect(() => {
    const box = wrapper.current;
    if (!box || !attachTo) return;
    const pictures = (files: FileList | null | undefined) =>
      [...(files ?? [])].filter((f) => isPreviewableImage(f.type));
    const take = (event: Event, files: File[]) => {
      if (files.length === 0) return;
      event.preventDefault();
      event.stopPropagation();
      for (const file of files) void attach(file);
    };
    const onPaste = (e: ClipboardEvent) => take(e, pictures(e.clipboardData?.files));
    const onDrop = (e: DragEvent) => take(e, pictures(e.dataTransfer?.files));
    const onDragOver = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes("Files")) e.stopPropagation();
    };
    box.addEventListener("paste", onPaste);
    box.addEventListener("drop", onDrop);
    box.addEventListener("dragover", onDragOver);
    return () => {
      box.removeEventListener("paste", onPaste);
      box.removeEventListener("drop", onDrop);
      box.removeEventListener("dragover", onDragOver);
    };
  });

  async function attach(file: File) {
    const key = Date.now() + Math.random();
    const name = file.name || "pasted-image.png";
    const change = (c: Partial<UploadState>) =>
      setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...c } : u)));
    setUploads((all) => [...all, { key, name, loaded: 0, total: file.size, error: null }]);
    if (file.size > ATTACHMENT_MAX_BYTES) return change({ error: tooLargeMessage(name) });
    const named = file.name ? file : new File([file], name, { type: file.type });
    const outcome = await uploadAttachment(attachTo!, named, (loaded, total) => change({ loaded, total }));
    if (!outcome.ok || !outcome.id) return change({ error: outcome.ok ? "Something went wrong." : outcome.message });
    insertAtCursor(`${attachmentMarkdown(outcome.id, name)}\n`);
    setUploads((all) => all.filter((u) => u.key !== key));
    revalidator.revalidate();
  }

  function insertAtCursor(text: string) {
    const field = textarea();
    if (!field) return;
    const start = field.selectionStart ?? field.value.length;
    const end = field.selectionEnd ?? start;
    const before = field.value.slice(0, start);
    field.setRangeText(before && !before.endsWith("\n") ? `\n${text}` : text, start, end, "end");
    field.dispatchEvent(new Event("input", { bubbles: true }));
    field.focus();
  }

  return (
    <div className="markdown-field" ref={wrapper}>
      <TextAreaField
        name={name}
        label={label}
        hint={hint ?? MARKDOWN_HINT}
        maxLength={maxLength}
        rows={rows}
        value={value}
        error={error}
      />
      <UploadProgress
        uploads={uploads}
        label="Pictures being attached"
        dismiss={(key) => setUploads((all) => all.filter((u) => u.key !== key))}
      />
      <button
        type="submit"
        name="preview"
        value={name}
        formNoValidate
        className="button button-small button-secondary"
        onClick={showPreview}
      >
        Preview
      </button>
      {shown !== null ? (
        <section className="markdown-preview" aria-label="Preview" aria-live="polite">
          <p className="muted small">Preview (not saved yet)</p>
          {shown ? <RichText html={shown} /> : <p className="muted">Nothing to preview.</p>}
        </section>
      ) : null}
    </div>
  );
}
