import { attachmentImageSrc, attachmentPath, isPreviewableImage } from "./attachments";
import { backendError } from "./http.server";
import { submittedValues, type FormValues } from "./schemas";
import { parseMarkdown, renderMarkdown, type ParsedText, type ResolvedReferences } from "./markdown.server";
import type { SupabaseClient } from "./supabase-types";
import { excerpt, plainText } from "../../supabase/functions/_shared/plain-text";

/**
 * Descriptions and comments of one team as the reader sees them: Markdown
 * rendered on the server (markdown.server.ts) with the references the
 * reader may follow. All the texts of a page are read first; what they refer
 * to is looked up in one request (`text_references`, as the reader: row-level
 * security decides), none when they refer to nothing the page already knows.
 */
export interface KnownAttachment {
  id: string;
  file_name: string;
  content_type: string;
}

interface Found {
  tasks: Array<{ key: string; number: number; project_key: string; title: string }>;
  people: Array<{ username: string; display_name: string }>;
  attachments: KnownAttachment[];
}

export async function renderTexts(
  supabase: SupabaseClient,
  teamSlug: string,
  texts: string[],
  /** attachments the page has read already (the task's own) */
  known: KnownAttachment[] = [],
): Promise<string[]> {
  const parsed = texts.map((text) => parseMarkdown(text));
  const resolved = await resolveReferences(supabase, teamSlug, parsed, known);
  return parsed.map((p) => renderMarkdown(p, resolved));
}

async function resolveReferences(
  supabase: SupabaseClient,
  teamSlug: string,
  parsed: ParsedText[],
  known: KnownAttachment[],
): Promise<ResolvedReferences> {
  const tasks = new Set<string>();
  const people = new Set<string>();
  const attachments = new Set<string>();
  for (const p of parsed) {
    p.references.tasks.forEach((t) => tasks.add(t));
    p.references.people.forEach((u) => people.add(u));
    p.references.attachments.forEach((a) => attachments.add(a));
  }
  const knownById = new Map(known.map((a) => [a.id.toLowerCase(), a]));
  const unknown = [...attachments].filter((id) => !knownById.has(id));

  let found: Found = { tasks: [], people: [], attachments: [] };
  if (tasks.size + people.size + unknown.length > 0) {
    const { data, error } = await supabase.rpc(
      "text_references",
      { team_slug: teamSlug, task_keys: [...tasks], usernames: [...people], attachment_ids: unknown },
      { get: true },
    );
    if (error) throw backendError(error);
    found = (data as unknown as Found | null) ?? found;
  }

  const team = `/teams/${encodeURIComponent(teamSlug)}`;
  const resolved: ResolvedReferences = { tasks: new Map(), people: new Map(), images: new Map() };
  for (const t of found.tasks)
    resolved.tasks.set(t.key, { href: `${team}/projects/${t.project_key}/tasks/${t.number}`, title: t.title });
  for (const p of found.people)
    resolved.people.set(p.username.toLowerCase(), { name: p.display_name, href: `${team}/members` });
  for (const a of [...known, ...found.attachments]) {
    const id = a.id.toLowerCase();
    if (!attachments.has(id) || !isPreviewableImage(a.content_type)) continue;
    resolved.images.set(id, { src: attachmentImageSrc(id, "inline"), href: attachmentPath(id), alt: a.file_name });
  }
  return resolved;
}

/**
 * Texts of several teams as one-line plain excerpts of at most `max`
 * characters (the notifications page's quotes): no Markdown, and the people
 * they mention by name where the reader may see them (one request per team
 * that has mentions).
 */
export async function plainExcerpts(
  supabase: SupabaseClient,
  texts: ReadonlyArray<{ teamSlug: string; text: string }>,
  max: number,
): Promise<string[]> {
  const parsed = texts.map((t) => parseMarkdown(t.text));
  const names = new Map<string, Map<string, string>>();
  const teams = [...new Set(texts.map((t) => t.teamSlug))];
  await Promise.all(
    teams.map(async (slug) => {
      const people = new Set(
        parsed.filter((_, i) => texts[i].teamSlug === slug).flatMap((p) => [...p.references.people]),
      );
      if (people.size === 0) return;
      const { data, error } = await supabase.rpc(
        "text_references",
        { team_slug: slug, task_keys: [], usernames: [...people], attachment_ids: [] },
        { get: true },
      );
      if (error) throw backendError(error);
      const found = (data as unknown as Found | null)?.people ?? [];
      names.set(slug, new Map(found.map((p) => [p.username.toLowerCase(), p.display_name])));
    }),
  );
  return parsed.map((p, i) =>
    excerpt(
      plainText(p.tokens, (u) => names.get(texts[i].teamSlug)?.get(u)),
      max,
    ),
  );
}

/** The fields a "Preview" button may name. */
const PREVIEW_FIELDS = new Set(["description", "body"]);

export interface PreviewAnswer {
  intent?: string;
  errors: Record<string, never>;
  values: FormValues;
  preview: { field: string; html: string };
}

/**
 * A form's "Preview" button without JavaScript (`preview=<field>`): nothing
 * is saved; the same form comes back with every value kept and that field
 * rendered. Null when the button was not the one pressed.
 */
export async function previewAnswer(
  supabase: SupabaseClient,
  teamSlug: string,
  form: FormData,
  intent?: string,
): Promise<PreviewAnswer | null> {
  const field = form.get("preview");
  if (typeof field !== "string" || !PREVIEW_FIELDS.has(field)) return null;
  const values = submittedValues(form);
  delete values.preview;
  const [html] = await renderTexts(supabase, teamSlug, [values[field] ?? ""]);
  return { intent, errors: {}, values, preview: { field, html } };
}
