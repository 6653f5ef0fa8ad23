import { z } from "zod";
import { PALETTE } from "./palette";

/** The project's fields page (docs/product.md §17): define, change, order and remove fields and their options. */

const KINDS = ["text", "number", "date", "select", "multi_select", "checkbox", "link", "person"] as const;

const name = z
  .string({ required_error: "Enter a name." })
  .trim()
  .min(1, "Enter a name.")
  .max(40, "A field name has 1 to 40 characters.");

const optionalNumber = (message: string) =>
  z
    .string()
    .default("")
    .transform((value) => value.trim())
    .refine((value) => value === "" || /^-?\d+(\.\d+)?$/.test(value), message)
    .transform((value) => (value === "" ? null : Number(value)));

const tick = z
  .string()
  .optional()
  .transform((value) => value !== undefined && value !== "");

const numberRules = {
  min: optionalNumber("Enter a number, or leave it empty."),
  max: optionalNumber("Enter a number, or leave it empty."),
  decimals: z
    .string()
    .default("")
    .transform((value) => value.trim())
    .refine((value) => value === "" || /^[0-6]$/.test(value), "Decimals: 0 to 6, or empty for any.")
    .transform((value) => (value === "" ? null : Number(value))),
  onCard: tick,
  sum: tick,
};

/** "Acme, Globex" -> ["Acme", "Globex"], a name (any capitals) once. */
const optionNames = z
  .string()
  .default("")
  .transform((value) => {
    const seen = new Map<string, string>();
    for (const part of value.split(",")) {
      const option = part.trim();
      if (option && !seen.has(option.toLowerCase())) seen.set(option.toLowerCase(), option);
    }
    return [...seen.values()];
  })
  .refine((list) => list.length <= 50, "A field can have at most 50 options.")
  .refine((list) => list.every((o) => o.length <= 40), "An option has 1 to 40 characters.");

const fieldId = z.string().uuid();
const optionId = z.string().uuid();
const color = z.enum(PALETTE, { errorMap: () => ({ message: "Choose a colour." }) }).default("gray");

export const FieldActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("add-field"),
    name,
    kind: z.enum(KINDS, { errorMap: () => ({ message: "Choose a kind." }) }),
    options: optionNames,
    ...numberRules,
  }),
  z.object({ intent: z.literal("edit-field"), fieldId, name, ...numberRules }),
  z.object({ intent: z.literal("move-field"), fieldId, direction: z.enum(["up", "down"]) }),
  z.object({ intent: z.literal("remove-field"), fieldId, confirmed: tick }),
  z.object({ intent: z.literal("add-option"), fieldId, optionName: name, color }),
  z.object({ intent: z.literal("edit-option"), optionId, optionName: name, color }),
  z.object({ intent: z.literal("remove-option"), optionId }),
]);

export const KIND_LABELS: Record<(typeof KINDS)[number], string> = {
  text: "Text",
  number: "Number",
  date: "Date",
  select: "Select (one option)",
  multi_select: "Multi-select (several options)",
  checkbox: "Checkbox",
  link: "Link (http/https)",
  person: "Person (a member of the team)",
};
