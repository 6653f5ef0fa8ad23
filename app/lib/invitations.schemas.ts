import { z } from "zod";
import { ASSIGNABLE_ROLES } from "./teams";
import { ChangeRoleSchema, RemoveMemberSchema } from "./teams.schemas";

/** The members page's invitation forms (docs/product.md §5 email rule), for the server and the browser. */
export const InviteSchema = z.object({
  email: z
    .string({ required_error: "Enter an email address." })
    .trim()
    .min(1, "Enter an email address.")
    .max(254, "An email address has at most 254 characters.")
    .email("Enter a valid email address."),
  role: z.enum(ASSIGNABLE_ROLES, { errorMap: () => ({ message: "Choose guest, viewer, member or admin." }) }),
});

export const InvitationIdSchema = z.object({ invitationId: z.string().uuid("Choose an invitation.") });

/** The members page's forms: leave; admins invite, resend, revoke, change a role, remove a member. */
export function membersActionSchema() {
  return z.discriminatedUnion("intent", [
    z.object({ intent: z.literal("leave") }),
    InviteSchema.extend({ intent: z.literal("invite") }),
    InvitationIdSchema.extend({ intent: z.literal("resend") }),
    InvitationIdSchema.extend({ intent: z.literal("revoke") }),
    ChangeRoleSchema.extend({ intent: z.literal("role") }),
    RemoveMemberSchema.extend({ intent: z.literal("remove") }),
  ]);
}
