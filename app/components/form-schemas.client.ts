import type { ZodTypeAny } from "zod";

/**
 * Where each form's schema lives. A form loads its own module (and Zod,
 * ~14 KB gzip) once someone starts on it — focuses, touches or types — not
 * with the page: a visit that never fills the form never fetches them, and
 * no page fetches the schemas of other pages. Until they have arrived the
 * server checks alone (it always does). A `.client` module: the server's
 * build leaves it out (nothing there loads schemas lazily, and its static
 * imports of the same modules made the lazy loads warn).
 */
const SCHEMA_MODULES = {
  auth: () => import("~/lib/schemas"),
  teams: () => import("~/lib/teams.schemas"),
  tasks: () => import("~/lib/tasks.schemas"),
  invitations: () => import("~/lib/invitations.schemas"),
  views: () => import("~/lib/views.schemas"),
  statuses: () => import("~/lib/statuses.schemas"),
  labels: () => import("~/lib/labels.schemas"),
  connect: () => import("~/lib/connect.schemas"),
};
type SchemaModules = { [M in keyof typeof SCHEMA_MODULES]: Awaited<ReturnType<(typeof SCHEMA_MODULES)[M]>> };

const SCHEMAS = {
  SignupSchema: "auth",
  LoginSchema: "auth",
  EmailSignInSchema: "auth",
  OtpSchema: "auth",
  ForgotPasswordSchema: "auth",
  ResetPasswordSchema: "auth",
  PasswordChangeSchema: "auth",
  EmailChangeSchema: "auth",
  ProfileSchema: "auth",
  MfaCodeSchema: "auth",
  ConfirmFactorSchema: "auth",
  FactorNameSchema: "auth",
  RecoveryCodeSchema: "auth",
  CreateTeamSchema: "teams",
  RenameTeamSchema: "teams",
  TeamAddressSchema: "teams",
  CommentSchema: "tasks",
  CreateProjectSchema: "tasks",
  CreateTaskSchema: "tasks",
  ChecklistItemSchema: "tasks",
  SubtaskSchema: "tasks",
  InviteSchema: "invitations",
  SaveViewSchema: "views",
  RenameViewSchema: "views",
  AddStatusSchema: "statuses",
  EditStatusSchema: "statuses",
  LabelSchema: "labels",
  ApiTokenSchema: "connect",
  WebhookSchema: "connect",
} as const satisfies Record<string, keyof typeof SCHEMA_MODULES>;

export type SchemaName = keyof typeof SCHEMAS;
// a name above that its module doesn't export as a Zod schema is a type error here
type SchemaOf<K extends SchemaName> = SchemaModules[(typeof SCHEMAS)[K]][K & keyof SchemaModules[(typeof SCHEMAS)[K]]];
const schemasExist: { [K in SchemaName]: SchemaOf<K> extends ZodTypeAny ? true : never } = Object.fromEntries(
  Object.keys(SCHEMAS).map((k) => [k, true]),
) as never;
void schemasExist;

export interface BrowserCheck {
  parseForm: SchemaModules["auth"]["parseForm"];
  schema: ZodTypeAny;
}
const loaded = new Map<SchemaName, Promise<BrowserCheck>>();
export function loadSchema(name: SchemaName): Promise<BrowserCheck> {
  let check = loaded.get(name);
  if (!check) {
    check = Promise.all([SCHEMA_MODULES.auth(), SCHEMA_MODULES[SCHEMAS[name]]()]).then(([{ parseForm }, module]) => ({
      parseForm,
      schema: (module as unknown as Record<SchemaName, ZodTypeAny>)[name],
    }));
    loaded.set(name, check);
  }
  return check;
}
