import { z } from "zod";
import { VIEW_KINDS } from "./views";

/** The saved views' forms (docs/product.md §13): a name of 1–40 characters. */
const name = z
  .string({ required_error: "Name the view." })
  .trim()
  .min(1, "Name the view.")
  .max(40, "A view's name has at most 40 characters.");

const viewId = z.string().uuid("That view doesn't exist any more.");

export const SaveViewSchema = z.object({
  name,
  kind: z.enum(VIEW_KINDS, { errorMap: () => ({ message: "Choose a board, list or calendar." }) }),
  query: z.string().max(1000).default(""),
  shared: z
    .literal("on")
    .optional()
    .transform((value) => value === "on"),
});

export const RenameViewSchema = z.object({ viewId, name });

export const SavedViewActionSchema = z.discriminatedUnion("intent", [
  SaveViewSchema.extend({ intent: z.literal("save") }),
  RenameViewSchema.extend({ intent: z.literal("rename") }),
  z.object({ intent: z.literal("delete"), viewId }),
]);
