import { z } from "zod";
import { PALETTE } from "./palette";

/** Forms of a team's labels page (docs/product.md §11), for the server and the browser. */

const labelName = z
  .string({ required_error: "Enter a name." })
  .transform((value) => value.replace(/\s+/g, " ").trim())
  .pipe(z.string().min(1, "Enter a name.").max(24, "A label has at most 24 characters."));

const color = z.enum(PALETTE, { errorMap: () => ({ message: "Choose a colour." }) });
const labelId = z.string({ required_error: "That label doesn't exist." }).uuid("That label doesn't exist.");

export const LabelSchema = z.object({ name: labelName, color });

export const LabelActionSchema = z.discriminatedUnion("intent", [
  LabelSchema.extend({ intent: z.literal("create-label") }),
  LabelSchema.extend({ intent: z.literal("edit-label"), labelId }),
  z.object({ intent: z.literal("delete-label"), labelId }),
]);
