/**
 * Roles and what each may do (PRODUCT.md §6), shared by loaders, actions and
 * components: the UI hides what a role can't do, the server refuses it anyway.
 */
export const ROLES = ["viewer", "member", "admin", "owner"] as const;
export type Role = (typeof ROLES)[number];

/** Roles an admin may give (ownership moves only by transfer). */
export const ASSIGNABLE_ROLES = ["viewer", "member", "admin"] as const satisfies readonly Role[];

export const ROLE_LABELS: Record<Role, string> = { viewer: "Viewer", member: "Member", admin: "Admin", owner: "Owner" };

export const FORBIDDEN_MESSAGE = "Your role in this team doesn't allow that.";

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** `role` is at least `min` in the order viewer < member < admin < owner. */
export function hasRole(role: Role, min: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(min);
}

/** The permissions a page needs to decide what to offer. */
export function permissionsOf(role: Role) {
  return {
    editTasks: hasRole(role, "member"),
    comment: hasRole(role, "member"),
    deleteAnyComment: hasRole(role, "admin"),
    deleteTasks: hasRole(role, "admin"),
    manageProjects: hasRole(role, "admin"),
    manageMembers: hasRole(role, "admin"),
    renameTeam: hasRole(role, "admin"),
    ownTeam: role === "owner",
  };
}

export type Permissions = ReturnType<typeof permissionsOf>;

/** A slug suggestion from a team name: "Acme & Co." → "acme-co". */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/g, "");
}
