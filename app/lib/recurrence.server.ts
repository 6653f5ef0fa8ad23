import { ruleFromFields, WEEKDAYS, type Repeat } from "./recurrence";
import type { SupabaseClient } from "./supabase-types";
import type { TaskFieldsSchema } from "./tasks.schemas";
import type { z } from "zod";

/**
 * The task's rule (`recurrence`, null when it doesn't repeat) from its parsed
 * form fields, or the message for the form's `repeat` field: a repeating task
 * needs a due date (the database refuses one without, too).
 */
export function taskRecurrence(fields: z.infer<typeof TaskFieldsSchema>): { rule: string | null } | { error: string } {
  const days = WEEKDAYS.filter((d) => fields[`day_${d}`]);
  return ruleFromFields(
    { repeat: fields.repeat satisfies Repeat, every: fields.every, days, monthly: fields.monthly },
    fields.dueOn,
  );
}

/**
 * The repeat rules of a project's tasks that still repeat (a rule and no
 * successor yet), or of one task, named by the URL's team slug, project key
 * (and number), so the read needs no earlier one and runs beside task_panel,
 * which predates repeating tasks and doesn't return the rule (board_view
 * says on each card whether it repeats).
 * Row-level security decides, as for the page's own read.
 */
export async function readRepeats(
  supabase: SupabaseClient,
  names: { teamSlug: string; projectKey: string; number?: number },
): Promise<{ error: unknown; rules: Map<string, string> }> {
  let query = supabase
    .from("tasks")
    .select("id, recurrence, projects!inner(key, teams!inner(slug))")
    .eq("projects.key", names.projectKey)
    .eq("projects.teams.slug", names.teamSlug)
    .not("recurrence", "is", null)
    .is("successor_id", null);
  if (names.number !== undefined) query = query.eq("number", names.number);
  const { data, error } = await query.returns<Array<{ id: string; recurrence: string }>>();
  return { error, rules: new Map((data ?? []).map((row) => [row.id, row.recurrence])) };
}
