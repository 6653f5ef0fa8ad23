import { z } from "zod";
import { ASSIGNABLE_ROLES, SLUG_RULE } from "./teams";

/** Forms of the teams, members and settings pages (docs/product.md §5), for the server and the browser. */

const teamName = z
  .string({ required_error: "Enter a team name." })
  .trim()
  .min(1, "Enter a team name.")
  .max(60, "A team name has at most 60 characters.");

export { SLUG_RULE };

const slug = z
  .string()
  .trim()
  .toLowerCase()
  .min(3, `An address has ${SLUG_RULE}`)
  .max(40, `An address has ${SLUG_RULE}`)
  .regex(/^[a-z0-9][a-z0-9-]*[a-z0-9]$/, `An address has ${SLUG_RULE}`)
  .refine((value) => value !== "new", "That address is reserved.");

/** An empty slug means "make one from the name" (the action does). */
export const CreateTeamSchema = z.object({
  name: teamName,
  slug: z.union([z.literal("").transform(() => undefined), slug]).optional(),
});

export const RenameTeamSchema = z.object({ name: teamName });

/** A team's new address, in its settings. */
export const TeamAddressSchema = z.object({
  slug: z.string({ required_error: `Choose an address: ${SLUG_RULE}` }).pipe(slug),
});

const userId = z.string({ required_error: "Choose a member." }).uuid("Choose a member.");

export const ChangeRoleSchema = z.object({
  userId,
  role: z.enum(ASSIGNABLE_ROLES, { errorMap: () => ({ message: "Choose guest, viewer, member or admin." }) }),
});

export const RemoveMemberSchema = z.object({ userId });

export const TransferOwnershipSchema = z.object({ newOwnerId: userId });

/** Deleting a team: the person types its slug. */
export function deleteTeamSchema(teamSlug: string) {
  return z.object({
    confirm: z
      .string({ required_error: `Type ${teamSlug} to confirm.` })
      .trim()
      .refine((value) => value === teamSlug, `Type ${teamSlug} to confirm.`),
  });
}

/** The settings page's forms: rename (admins), transfer and delete (the owner). */
export function settingsActionSchema(teamSlug: string) {
  return z.discriminatedUnion("intent", [
    RenameTeamSchema.extend({ intent: z.literal("rename") }),
    TeamAddressSchema.extend({ intent: z.literal("address") }),
    TransferOwnershipSchema.extend({ intent: z.literal("transfer") }),
    deleteTeamSchema(teamSlug).extend({ intent: z.literal("delete") }),
  ]);
}
