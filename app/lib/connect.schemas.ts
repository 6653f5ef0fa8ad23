import { z } from "zod";

/** Forms of /account/tokens and a project's webhooks (docs/product.md, Connecting other tools), for the server and the browser. */

export const TOKEN_DAYS = ["7", "30", "90", "365"] as const;
/** How long a new token may last (at most a year). */
export const TOKEN_LIFETIMES = [
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 365, label: "1 year" },
] as const;

export const ApiTokenSchema = z.object({
  name: z
    .string({ required_error: "Give the token a name." })
    .transform((value) => value.replace(/\s+/g, " ").trim())
    .pipe(z.string().min(1, "Give the token a name.").max(100, "A token's name has at most 100 characters.")),
  // "" is all my teams
  teamId: z.union([z.literal(""), z.string().uuid("Choose one of your teams.")]).default(""),
  mode: z.enum(["read", "write"], { errorMap: () => ({ message: "Choose read-only or read and write." }) }),
  days: z.enum(TOKEN_DAYS, { errorMap: () => ({ message: "A token lasts at most a year." }) }),
  password: z.string({ required_error: "Enter your password." }).min(1, "Enter your password.").max(72),
  // required by the action when the account has an authenticator app
  code: z
    .string()
    .transform((value) => value.replace(/\s+/g, ""))
    .pipe(z.union([z.literal(""), z.string().regex(/^\d{6}$/, "Enter the 6-digit code from your app.")]))
    .optional(),
});

export const ApiTokenActionSchema = z.discriminatedUnion("intent", [
  ApiTokenSchema.extend({ intent: z.literal("create") }),
  z.object({ intent: z.literal("revoke"), tokenId: z.string().uuid("That token doesn't exist.") }),
]);

/** A webhook's events, by the checkbox that asks for each (in the order the form shows them). */
export const WEBHOOK_EVENTS = [
  { field: "evCreated", event: "task.created", label: "Task created" },
  { field: "evChanged", event: "task.changed", label: "Task changed" },
  { field: "evMoved", event: "task.moved", label: "Task moved" },
  { field: "evDeleted", event: "task.deleted", label: "Task deleted" },
  { field: "evComment", event: "comment.posted", label: "Comment posted" },
] as const;

const checked = z.literal("on").optional();

export const WebhookSchema = z
  .object({
    url: z
      .string({ required_error: "A webhook needs an http or https address." })
      .trim()
      .max(2000, "An address has at most 2,000 characters.")
      .regex(/^https?:\/\/[^\s/?#]+\S*$/i, "A webhook needs an http or https address."),
    evCreated: checked,
    evChanged: checked,
    evMoved: checked,
    evDeleted: checked,
    evComment: checked,
    format: z.enum(["standard", "slack"], { errorMap: () => ({ message: "Choose a format." }) }),
  })
  .refine((v) => WEBHOOK_EVENTS.some((e) => v[e.field]), { message: "Choose at least one event.", path: ["events"] });

export const WebhookActionSchema = z.discriminatedUnion("intent", [
  WebhookSchema.innerType().extend({ intent: z.literal("create-webhook") }),
  z.object({ intent: z.literal("toggle-webhook"), webhookId: z.string().uuid(), enabled: z.enum(["true", "false"]) }),
  z.object({ intent: z.literal("delete-webhook"), webhookId: z.string().uuid() }),
  z.object({ intent: z.literal("resend-delivery"), deliveryId: z.string().uuid() }),
]);
