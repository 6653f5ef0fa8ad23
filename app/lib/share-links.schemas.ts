import { z } from "zod";

/** The forms of a project's public links page (docs/product.md §20), for the server. */

const checked = z.literal("on").optional();

export const ShareLinkActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("create-link"),
    // "board", or a shared saved view's id
    target: z.union([z.literal("board"), z.string().uuid()], {
      errorMap: () => ({ message: "Choose the board or one of the team's shared views." }),
    }),
    comments: checked,
  }),
  z.object({ intent: z.literal("revoke-link"), linkId: z.string().uuid() }),
]);
