import { z } from "zod";

/**
 * One schema per form, used by the action (always) and by the browser (for
 * comfort, before the form is sent). Rules and words follow docs/product.md §5.
 */

const email = z
  .string({ required_error: "Enter your email address." })
  .trim()
  .min(1, "Enter your email address.")
  .max(254, "An email address has at most 254 characters.")
  .email("Enter a valid email address, like name@example.com.")
  .transform((value) => value.toLowerCase());

/** The rules a new password must meet; the same words as the backend's reasons (see auth-errors.ts). */
export const PASSWORD_RULES = {
  length: "Use at least 8 characters.",
  tooLong: "Use at most 72 characters.",
  characters: "Include at least one letter and one digit.",
} as const;

const newPassword = z
  .string({ required_error: "Choose a password." })
  .min(1, "Choose a password.")
  .min(8, PASSWORD_RULES.length)
  .max(72, PASSWORD_RULES.tooLong)
  .refine((value) => /[A-Za-z]/.test(value) && /[0-9]/.test(value), PASSWORD_RULES.characters);

const currentPassword = z
  .string({ required_error: "Enter your password." })
  .min(1, "Enter your password.")
  .max(72, PASSWORD_RULES.tooLong);

const displayName = z
  .string({ required_error: "Enter your name." })
  .trim()
  .min(1, "Enter your name.")
  .max(60, "A name has at most 60 characters.");

const next = z.string().optional();

// in the form's order: a page sent back without JavaScript focuses the first wrong field by it;
// timeZone: the browser's, when JavaScript filled the hidden field (the server keeps only a zone it knows)
export const SignupSchema = z.object({
  displayName,
  email,
  password: newPassword,
  next,
  timeZone: z.string().optional(),
});
export const LoginSchema = z.object({ email, password: currentPassword, next });
/** "Email me a sign-in link" and "email me a code" */
export const EmailSignInSchema = z.object({ email, next });
export const OtpSchema = z.object({
  email,
  token: z
    .string({ required_error: "Enter the code from the email." })
    .trim()
    .regex(/^\d{6}$/, "Enter the 6-digit code from the email."),
  next,
});
export const ResendSchema = z.object({ email, next });
/** The log-in page's forms: password (the default when no intent is sent), resend the confirmation, email a link or a code. */
export const LoginActionSchema = z.discriminatedUnion("intent", [
  LoginSchema.extend({ intent: z.literal("password") }),
  ResendSchema.extend({ intent: z.literal("resend") }),
  EmailSignInSchema.extend({ intent: z.literal("magiclink") }),
  EmailSignInSchema.extend({ intent: z.literal("code") }),
]);
export const ForgotPasswordSchema = z.object({ email });

/** Two-factor sign-in (/login/mfa and /account/security): a code from the authenticator app. */
const totpCode = z
  .string({ required_error: "Enter the 6-digit code from your authenticator app." })
  .transform((value) => value.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code from your authenticator app."));
const factorId = z.string({ required_error: "Choose an authenticator app." }).uuid("Choose an authenticator app.");
export const MfaCodeSchema = z.object({ factorId, code: totpCode, next });
export const FactorNameSchema = z.object({
  friendlyName: z.string().trim().max(60, "A name has at most 60 characters.").optional(),
  // asked for when the first app is added long after signing in (the server decides)
  password: z.string().optional(),
});
export const ConfirmFactorSchema = z.object({ factorId, code: totpCode });
/** /account/security's forms: start enrolling an app, confirm it with a code, remove one. */
export const SecurityActionSchema = z.discriminatedUnion("intent", [
  FactorNameSchema.extend({ intent: z.literal("enroll") }),
  ConfirmFactorSchema.extend({ intent: z.literal("confirm") }),
  z.object({ intent: z.literal("remove"), factorId }),
  z.object({ intent: z.literal("codes") }),
]);
/** /login/mfa without the phone: one of the account's recovery codes ("abcde-fghjk", any case, spaces ignored). */
export const RecoveryCodeSchema = z.object({
  recoveryCode: z
    .string({ required_error: "Enter one of your recovery codes." })
    .transform((value) => value.replace(/[\s-]+/g, "").toLowerCase())
    .pipe(z.string().regex(/^[a-z0-9]{10}$/, "A recovery code is 10 letters and digits, like abcde-fghjk.")),
  next,
});

const newPasswordPair = z
  .object({ password: newPassword, confirm: z.string().optional() })
  .superRefine((value, ctx) => {
    if (value.confirm !== undefined && value.confirm !== value.password) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["confirm"], message: "The two passwords don't match." });
    }
  });
export const ResetPasswordSchema = newPasswordPair;
export const PasswordChangeSchema = newPasswordPair;

export const EmailChangeSchema = z.object({ email });

export const ProfileSchema = z.object({
  displayName,
  username: z
    .string()
    .trim()
    .transform((value) => value.toLowerCase())
    .pipe(
      z
        .string()
        .min(3, "A username has 3 to 30 characters.")
        .max(30, "A username has 3 to 30 characters.")
        .regex(/^[a-z0-9_]+$/, "Use only a–z, 0–9 and _ in a username."),
    )
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** an IANA name from the list (the server checks it is one); absent: the saved one stays */
  timeZone: z.string().trim().min(1, "Choose a time zone from the list.").optional(),
});

export type FieldErrors = Record<string, string>;
export type FormValues = Record<string, string>;

/** Fields whose values are never sent back to the page. */
export const SECRET_FIELDS = new Set(["password", "confirm", "token", "recoveryCode"]);

export type FormResult<T> =
  { success: true; data: T; values: FormValues } | { success: false; errors: FieldErrors; values: FormValues };

/** What the person typed, without secrets, ready to put back into the form. */
export function submittedValues(form: FormData | Record<string, unknown>): FormValues {
  const entries = form instanceof FormData ? [...form.entries()] : Object.entries(form);
  const values: FormValues = {};
  for (const [name, value] of entries) {
    if (typeof value === "string" && !SECRET_FIELDS.has(name) && !name.startsWith("_") && name !== "intent")
      values[name] = value;
  }
  return values;
}

export function parseForm<T extends z.ZodTypeAny>(
  schema: T,
  form: FormData | Record<string, unknown>,
): FormResult<z.infer<T>> {
  const raw =
    form instanceof FormData ? Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string")) : form;
  const values = submittedValues(form);
  const result = schema.safeParse(raw);
  if (result.success) return { success: true, data: result.data, values };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return { success: false, errors, values };
}

/** A schema for a page with several forms: one object per form, told apart by its `intent` literal. */
export type IntentSchema = z.ZodDiscriminatedUnion<"intent", z.ZodDiscriminatedUnionOption<"intent">[]>;

/**
 * One form's result, told apart by `intent` first: narrowing on `intent`
 * says which form it was, then `success` says whether its fields passed.
 */
export type IntentResult<T> = T extends { intent: infer I }
  ? | { success: true; intent: I; data: T; values: FormValues }
    | { success: false; intent: I; errors: FieldErrors; values: FormValues }
  : never;

/**
 * Parses a post to a page with several forms. `null` for an intent the page
 * doesn't have (the action answers 404); otherwise which form it was and its
 * parsed fields or their messages, as parseForm.
 */
export function parseIntent<S extends IntentSchema>(
  schema: S,
  form: FormData | Record<string, unknown>,
): IntentResult<z.infer<S>> | null {
  const intent = form instanceof FormData ? form.get("intent") : form.intent;
  if (typeof intent !== "string" || !schema.optionsMap.has(intent)) return null;
  return { ...parseForm(schema, form), intent } as IntentResult<z.infer<S>>;
}
