/**
 * The fields the team defines in the list view (docs/product.md §17, docs/decisions/0044):
 * which fields are columns (`?columns=<id>,<id>`; without it, those shown on
 * cards), the filters by value (`?f.<field id>=<value>`, `none` for "no
 * value"), and the group headings of a field. Shared by the server and the
 * browser; the database sorts, groups, filters and sums (task_table).
 */
import { fieldWords, type FieldDef } from "./fields";
import { isFieldKey, type FieldKey } from "./list";

/** The URL's name for a filter by a field's value. */
export const fieldFilterName = (fieldId: string) => `f.${fieldId}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The kinds a list can be grouped by (docs/product.md §17). */
export const GROUPABLE_KINDS: ReadonlyArray<FieldDef["kind"]> = ["select", "person", "checkbox"];

/** `?f.<id>=<value>` pairs of the URL, field id -> value (at most 30, each at most 200 characters). */
export function parseFieldFilters(params: URLSearchParams): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const [name, raw] of params) {
    if (!name.startsWith("f.")) continue;
    const id = name.slice(2).toLowerCase();
    const value = raw.trim().slice(0, 200);
    if (UUID.test(id) && value && Object.keys(filters).length < 30) filters[id] = value;
  }
  return filters;
}

/** The columns asked for: `?columns=` (ids, comma-separated; empty: none), else null (the default). */
export function parseColumns(params: URLSearchParams): string[] | null {
  if (!params.has("columns")) return null;
  const ids = params.getAll("columns").join(",").split(",");
  return [...new Set(ids.map((id) => id.trim().toLowerCase()).filter((id) => UUID.test(id)))].slice(0, 30);
}

/** The fields shown as columns, in the project's order: those asked for, or those shown on cards. */
export function columnFields(fields: readonly FieldDef[], asked: readonly string[] | null): FieldDef[] {
  return fields.filter((f) => (asked ? asked.includes(f.id) : f.on_card));
}

/** What of the URL the list's other forms and links keep: the columns asked for and the field filters. */
export function fieldParams(
  columns: readonly string[] | null,
  filters: Record<string, string>,
): Record<string, string> {
  const kept: Record<string, string> = {};
  if (columns) kept.columns = columns.join(",");
  for (const [id, value] of Object.entries(filters)) kept[fieldFilterName(id)] = value;
  return kept;
}

/** The field a `field:<id>` key names, among the project's. */
export function fieldOfKey(fields: readonly FieldDef[], key: string | null | undefined): FieldDef | undefined {
  if (!key || !isFieldKey(key)) return undefined;
  const id = key.slice("field:".length);
  return fields.find((f) => f.id === id);
}

/** A field group's heading: an option's name, a member's name, "Yes"/"No", or what none means. */
export function fieldGroupTitle(field: FieldDef, value: string | null, names: Record<string, string>): string {
  if (field.kind === "checkbox") return value === "true" ? `${field.name}: Yes` : `${field.name}: No`;
  if (value === null) return `No ${field.name}`;
  const words = fieldWords(field, value, (id) => names[id]);
  return words ?? (field.kind === "select" ? "Former option" : "Former member");
}

/** A sum as the list shows it: "Points: 12". */
export function sumWords(fields: readonly FieldDef[], sums: Record<string, number> | null | undefined): string[] {
  if (!sums) return [];
  return fields.filter((f) => f.sum && f.id in sums).map((f) => `${f.name}: ${Number(sums[f.id])}`);
}

export type { FieldKey };
