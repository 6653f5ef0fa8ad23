import type { PaletteColor } from "./palette";

/**
 * Fields the team defines (docs/product.md §17; supabase/migrations/…_fields.sql):
 * their definitions as task_panel sends them, a value in words, and what a
 * task form's fields and assignees become for save_task / create_task. The
 * database checks every value; this only gathers what the form sent.
 */
export type FieldKind = "text" | "number" | "date" | "select" | "multi_select" | "checkbox" | "link" | "person";

export interface FieldOption {
  id: string;
  name: string;
  color: PaletteColor;
}

export interface FieldDef {
  id: string;
  name: string;
  kind: FieldKind;
  on_card: boolean;
  sum: boolean;
  min: number | null;
  max: number | null;
  decimals: number | null;
  options: FieldOption[];
}

/** A task's values: field id -> the canonical value (tasks.fields). */
export type FieldValues = Record<string, unknown>;

/** The form's name for a field's input; a multi-select's options are `field:<id>:<option id>`. */
export const fieldInputName = (fieldId: string) => `field:${fieldId}`;
/** The form's name for an assignee's checkbox. */
export const assigneeInputName = (personId: string) => `assignee:${personId}`;
/** The label picker's checkbox of one team label, by its name (issue 42 §5; read by labelsFromForm in tasks.schemas). */
export const labelInputName = (name: string) => `label:${name}`;

/** A value as a person reads it ("Acme, Globex", "Mia Member", "yes"); null when there is none. */
export function fieldWords(
  def: FieldDef,
  value: unknown,
  names: ReadonlyMap<string, string> | ((id: string) => string | undefined),
): string | null {
  if (value === undefined || value === null || value === "") return null;
  const name = (id: string) => (typeof names === "function" ? names(id) : names.get(id));
  switch (def.kind) {
    case "select":
    case "multi_select": {
      const ids = Array.isArray(value) ? value : [value];
      const words = def.options.filter((o) => ids.includes(o.id)).map((o) => o.name);
      return words.length ? words.join(", ") : null;
    }
    case "checkbox":
      return value === true ? "Yes" : "No";
    case "person":
      return name(String(value)) ?? "A former member";
    default:
      return String(value);
  }
}

/** The value a form input shows for a field (a multi-select's are its checkboxes). */
export function fieldInputValue(def: FieldDef, value: unknown): string {
  if (value === undefined || value === null) return "";
  if (def.kind === "checkbox") return value === true ? "on" : "";
  return Array.isArray(value) ? "" : String(value);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The field values a task form sent, for save_task's `fields`: every field the
 * form listed (hidden `fieldsShown`, their ids) gets what its input says, and
 * null (cleared) when it says nothing (an unticked checkbox, an empty box).
 * Null when the form had no fields (it changes none).
 */
export function fieldChangesFromForm(form: FormData): FieldValues | null {
  const listed = String(form.get("fieldsShown") ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter((id) => UUID.test(id));
  if (!listed.length) return null;
  const changes: FieldValues = {};
  for (const id of listed) {
    const prefix = `${fieldInputName(id)}:`;
    const options = [...form.keys()].filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length));
    if (options.length) {
      changes[id] = options;
      continue;
    }
    const raw = form.get(fieldInputName(id));
    changes[id] = typeof raw === "string" && raw.trim() !== "" ? raw.trim() : null;
  }
  return changes;
}

/**
 * The assignees a task form sent: its checkboxes (`assignee:<id>`, when the
 * form listed them: hidden `assigneesShown`), else the one-assignee select
 * (`assignee`) of forms and clients written before several assignees. Null:
 * the form doesn't say (they stay as they are).
 */
export function assigneesFromForm(form: FormData, single: string | null): string[] | null {
  if (form.has("assigneesShown")) {
    return [...form.keys()]
      .filter((key) => key.startsWith("assignee:"))
      .map((key) => key.slice("assignee:".length))
      .filter((id) => UUID.test(id));
  }
  if (form.has("assignee")) return single ? [single] : [];
  return null;
}

/** The field a refused value belongs beside: `field:<id>` from the database's hint, else null. */
export function refusedFieldInput(error: { details?: string | null; hint?: string | null }): string | null {
  if (error.details !== "field_value_invalid") return null;
  try {
    const { id } = JSON.parse(error.hint ?? "") as { id?: unknown };
    return typeof id === "string" ? fieldInputName(id) : null;
  } catch {
    return null;
  }
}
