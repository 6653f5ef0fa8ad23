import { z } from "zod";
import { PRIORITIES } from "./board";
import type { BulkChange } from "./list";

/**
 * The bulk edit form (docs/product.md §13): the ticked rows (`ids`, or
 * `all` for every row of the page, listed in `pageIds`) and one change,
 * named by the button that sent it, with its value from the field beside it:
 * a status and a label by id (the project's statuses, the team's labels).
 */
const uuid = z.string().uuid();

const BulkValueSchemas = {
  status: z.object({ status: z.string({ required_error: "Choose a status." }).uuid("Choose a status.") }),
  assignee: z.object({
    assignee: z.union([z.literal(""), uuid], { errorMap: () => ({ message: "Choose a member of the team." }) }),
  }),
  priority: z.object({ priority: z.enum(PRIORITIES, { errorMap: () => ({ message: "Choose a priority." }) }) }),
  add_label: z.object({ label: labelId() }),
  remove_label: z.object({ label: labelId() }),
  // a field the team defines and its value as typed (a number, a date, an option's name, "yes"/"no" for a
  // checkbox; empty clears it): the database checks it against the field and words a refusal
  set_field: z.object({
    setField: z.string({ required_error: "Choose a field." }).uuid("Choose a field."),
    fieldValue: z.string().max(2000, "That value is too long.").optional(),
  }),
  delete: z.object({}),
} satisfies Record<BulkChange, z.ZodTypeAny>;

function labelId() {
  return z.string({ required_error: "Choose a label." }).uuid("Choose a label.");
}

export type BulkEdit =
  | { ok: true; change: BulkChange; value: string | null; ids: string[]; all: boolean }
  | { ok: false; field: string; message: string; ids: string[]; all: boolean };

/** What the form asks for, or what is wrong with it (the selection comes back either way). */
export function parseBulkEdit(form: FormData): BulkEdit {
  const all = form.get("all") === "on";
  const picked = (all ? form.getAll("pageIds") : form.getAll("ids")).map(String);
  const ids = [...new Set(picked.filter((id) => uuid.safeParse(id).success))].slice(0, 500);
  const change = String(form.get("change") ?? "") as BulkChange;
  if (!Object.hasOwn(BulkValueSchemas, change))
    return { ok: false, field: "form", message: "Choose what to change.", ids, all };
  if (ids.length === 0) return { ok: false, field: "form", message: "Tick at least one task.", ids, all };
  const parsed = BulkValueSchemas[change].safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      field: String(issue?.path[0] ?? "form"),
      message: issue?.message ?? "Check the form.",
      ids,
      all,
    };
  }
  const data = parsed.data as Record<string, string>;
  if (change === "set_field") return { ok: true, change, value: setFieldValue(form, data), ids, all };
  const value = change === "delete" ? null : (data.status ?? data.assignee ?? data.priority ?? data.label ?? null);
  return { ok: true, change, value, ids, all };
}

/**
 * bulk_edit_tasks' `set_field` value: `{"field": <id>, "value": <as typed, or null to clear>}`; a
 * checkbox field (listed by the form in `checkboxFields`) takes yes/no as well as true/false.
 */
function setFieldValue(form: FormData, data: Record<string, string>): string {
  const field = data.setField!.toLowerCase();
  const typed = (data.fieldValue ?? "").trim();
  const checkboxes = String(form.get("checkboxFields") ?? "")
    .toLowerCase()
    .split(",");
  let value: string | null = typed === "" ? null : typed;
  if (value !== null && checkboxes.includes(field)) {
    const word = value.toLowerCase();
    value = word === "yes" ? "true" : word === "no" ? "false" : value;
  }
  return JSON.stringify({ field, value });
}
