import type { FieldDef } from "./fields";
import type { TablesInsert } from "./database.types";
import { PALETTE, type PaletteColor } from "./palette";
import type { SupabaseClient } from "./supabase-types";

/** Fields the team defines (docs/product.md §17): the project's definitions and the writes of its fields page. */

type FieldOptionRow = FieldDef["options"][number] & { position: number };

/** An option as inserted: project_id comes from its field (field_options_before_insert), as tasks' number does. */
export const optionRow = (row: { field_id: string; name: string; color: PaletteColor }) =>
  row as TablesInsert<"field_options">;

/** The project's fields in order, with their options and how many tasks hold a value of each. */
export async function listFields(supabase: SupabaseClient, projectId: string) {
  const { data, error } = await supabase
    .from("fields")
    .select(
      "id, name, kind, on_card, sum, min:number_min, max:number_max, decimals:number_decimals, position, options:field_options(id, name, color, position), values:field_values(count)",
    )
    .eq("project_id", projectId)
    .order("position");
  if (error) return { fields: [] as (FieldDef & { held: number })[], error };
  const fields = (data ?? []).map((row) => {
    const { values, options, ...def } = row as unknown as Omit<FieldDef, "options"> & {
      position: number;
      values: { count: number }[];
      options: FieldOptionRow[];
    };
    return {
      ...def,
      options: [...options]
        .sort((a, b) => a.position - b.position)
        .map((o): FieldDef["options"][number] => ({ id: o.id, name: o.name, color: o.color })),
      held: values[0]?.count ?? 0,
    };
  });
  return { fields, error: null };
}

interface FieldInput {
  name: string;
  min: number | null;
  max: number | null;
  decimals: number | null;
  onCard: boolean;
  sum: boolean;
}

function rulesOf(kind: string, input: FieldInput) {
  const number = kind === "number";
  return {
    name: input.name,
    on_card: input.onCard,
    sum: number && input.sum,
    number_min: number ? input.min : null,
    number_max: number ? input.max : null,
    number_decimals: number ? input.decimals : null,
  };
}

/** A new field (last), and a select's first options coloured in turn through the palette. */
export async function addField(
  supabase: SupabaseClient,
  projectId: string,
  input: FieldInput & { kind: FieldDef["kind"]; options: string[] },
) {
  const { data, error } = await supabase
    .from("fields")
    .insert({ project_id: projectId, kind: input.kind, ...rulesOf(input.kind, input) })
    .select("id")
    .single();
  if (error || !data) return { error };
  if ((input.kind === "select" || input.kind === "multi_select") && input.options.length) {
    const colours = PALETTE.filter((c) => c !== "gray");
    const { error: optionsError } = await supabase
      .from("field_options")
      .insert(
        input.options.map((name, i) => optionRow({ field_id: data.id, name, color: colours[i % colours.length] })),
      );
    if (optionsError) {
      // all or nothing: the field goes again when its options are refused
      await supabase.from("fields").delete().eq("id", data.id);
      return { error: optionsError };
    }
  }
  return { error: null };
}

export async function editField(supabase: SupabaseClient, fieldId: string, kind: string, input: FieldInput) {
  return supabase.from("fields").update(rulesOf(kind, input)).eq("id", fieldId).select("id").maybeSingle();
}

/** One place up or down: the two fields swap positions. */
export async function moveField(supabase: SupabaseClient, fields: { id: string }[], fieldId: string, up: boolean) {
  const i = fields.findIndex((f) => f.id === fieldId);
  const j = up ? i - 1 : i + 1;
  if (i < 0 || j < 0 || j >= fields.length) return { error: null };
  const { error } = await supabase.from("fields").update({ position: j }).eq("id", fields[i].id);
  if (error) return { error };
  return supabase.from("fields").update({ position: i }).eq("id", fields[j].id);
}
