import { z } from "zod";

/**
 * Who sees a project (docs/product.md §20): the forms on its settings page,
 * for the server and the browser.
 */

const person = z.string({ required_error: "Choose a person." }).uuid("Choose a person.");

export const VISIBILITIES = ["team", "private"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const ProjectAccessSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("set-visibility"),
    visibility: z.enum(VISIBILITIES, { errorMap: () => ({ message: "Choose who sees the project." }) }),
  }),
  z.object({ intent: z.literal("add-project-member"), userId: person }),
  z.object({ intent: z.literal("remove-project-member"), userId: person }),
]);
