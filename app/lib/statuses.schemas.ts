import { z } from "zod";
import { CATEGORIES } from "./board";
import { PALETTE } from "./palette";

/**
 * Forms of a project's settings page (docs/product.md §11): its statuses,
 * for the server and the browser.
 */

const statusName = z
  .string({ required_error: "Enter a name." })
  .transform((value) => value.replace(/\s+/g, " ").trim())
  .pipe(z.string().min(1, "Enter a name.").max(30, "A status name has at most 30 characters."));

const color = z.enum(PALETTE, { errorMap: () => ({ message: "Choose a colour." }) });

/** Empty: no WIP limit. */
const wipLimit = z
  .string()
  .default("")
  .transform((value) => value.trim())
  .refine((value) => value === "" || /^\d{1,3}$/.test(value), "A WIP limit is a whole number from 1 to 999.")
  .transform((value) => (value === "" ? null : Number(value)))
  .refine((value) => value === null || (value >= 1 && value <= 999), "A WIP limit is a whole number from 1 to 999.");

const statusId = z.string({ required_error: "Choose a status." }).uuid("Choose a status.");

export const AddStatusSchema = z.object({
  name: statusName,
  color,
  category: z.enum(CATEGORIES, { errorMap: () => ({ message: "Choose what the status means." }) }),
  wipLimit,
});

export const EditStatusSchema = z.object({ statusId, name: statusName, color, wipLimit });

export const StatusActionSchema = z.discriminatedUnion("intent", [
  AddStatusSchema.extend({ intent: z.literal("add-status") }),
  EditStatusSchema.extend({ intent: z.literal("edit-status") }),
  /** buttons send the place (0-based) the status goes to; dragging sends the place it was dropped at */
  z.object({ intent: z.literal("move-status"), statusId, position: z.coerce.number().int().min(0).max(11) }),
  z.object({
    intent: z.literal("remove-status"),
    statusId,
    /** where its tasks go; empty when it holds none */
    moveTo: z
      .string()
      .default("")
      .transform((value) => value.trim())
      .pipe(z.union([z.literal("").transform(() => null), z.string().uuid("Choose where its tasks go.")])),
  }),
]);
