/**
 * Roles and what each may do (docs/product.md §6). One function, `can`,
 * answers for loaders (what a page offers), actions (what the server refuses)
 * and components: the UI hides what a role can't do, the server refuses it anyway.
 */
export const ROLES = ["guest", "viewer", "member", "admin", "owner"] as const;
export type Role = (typeof ROLES)[number];

export const FORBIDDEN_MESSAGE = "Your role in this team doesn't allow that.";

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** `role` is at least `min` in the order guest < viewer < member < admin < owner. */
export function hasRole(role: Role, min: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(min);
}

/**
 * Each action: the least role that may do it, and whether an archived
 * project forbids it (an archived project is read-only: its tasks and
 * comments stay as they are, but an admin can still unarchive it).
 */
const RULES = {
  editTasks: { min: "member", writesProject: true },
  /** guests may comment too (docs/product.md §20), though below viewer */
  comment: { min: "member", writesProject: true, alsoGuests: true },
  deleteAnyComment: { min: "admin", writesProject: true },
  deleteTasks: { min: "admin", writesProject: true },
  manageProjects: { min: "admin", writesProject: false },
  /** save a view for the whole team, rename or delete a shared one (docs/product.md §13) */
  shareViews: { min: "admin", writesProject: false },
  /** a project's statuses (§11): add, rename, recolour, reorder, WIP limits, remove */
  manageStatuses: { min: "admin", writesProject: true },
  /** make a team label (and put labels on tasks, which editTasks covers) */
  createLabels: { min: "member", writesProject: false },
  /** rename, recolour and delete the team's labels */
  manageLabels: { min: "admin", writesProject: false },
  manageMembers: { min: "admin", writesProject: false },
  renameTeam: { min: "admin", writesProject: false },
  ownTeam: { min: "owner", writesProject: false },
  /** team-wide pages: the overview, activity, labels, members list, new project (a guest sees only their projects) */
  seeTeam: { min: "viewer", writesProject: false },
} as const satisfies Record<string, { min: Role; writesProject: boolean; alsoGuests?: boolean }>;

export type Action = keyof typeof RULES;
export const ACTIONS = Object.keys(RULES) as Action[];

/** May someone with `role` do `action` (in a project that is `archived`)? */
export function can(role: Role, action: Action, { archived = false }: { archived?: boolean } = {}): boolean {
  const rule = RULES[action];
  if (archived && rule.writesProject) return false;
  if (role === "guest" && "alsoGuests" in rule) return true;
  return hasRole(role, rule.min);
}

/** Every action's answer at once, for a page deciding what to offer. */
export function permissionsOf(role: Role, options: { archived?: boolean } = {}): Permissions {
  return Object.fromEntries(ACTIONS.map((action) => [action, can(role, action, options)])) as Permissions;
}

export type Permissions = Record<Action, boolean>;
