import type { Role } from "./permissions";

/** A team slug's rule, in words (teams.schemas.ts checks it; the new-team page says it without loading Zod). */
export const SLUG_RULE = "3–40 characters: a–z, 0–9 and -, not starting or ending with -.";

/** Roles an admin may give (ownership moves only by transfer). */
export const ASSIGNABLE_ROLES = ["guest", "viewer", "member", "admin"] as const satisfies readonly Role[];

export const ROLE_LABELS: Record<Role, string> = {
  guest: "Guest",
  viewer: "Viewer",
  member: "Member",
  admin: "Admin",
  owner: "Owner",
};

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

/** The page a team's address names, as a person would type it. */
export function teamUrl(origin: string, slug: string): string {
  return `${origin}/teams/${slug}`;
}

/** docs/product.md §8's "That … is taken." for team addresses, which are global: the URL that exists. */
export function addressTakenMessage(origin: string, slug: string): string {
  return `A team at ${teamUrl(origin, slug)} exists already — choose another address.`;
}
