import type { SeededTeam } from "../product-fixtures";

/**
 * Every screen of docs/product.md §2, as a person reaches it, for the checks that
 * run on all of them (a11y.spec.ts: axe-core; layout.spec.ts: phone sizes).
 * A new page belongs here; the link targets (/auth/confirm, /auth/callback)
 * and /logout only redirect, so the pages they lead to stand for them. An
 * invitation page needs a real token (product-fixtures' inviteByEmail): the
 * specs add it with invitationRoute.
 */
export interface RouteCase {
  /** a short name, used in messages and screenshot file names */
  name: string;
  path: string;
  /** kept as a phone-size screenshot (test-results/, not compared) */
  screenshot?: boolean;
}

export const SIGNED_OUT_ROUTES: RouteCase[] = [
  { name: "landing", path: "/", screenshot: true },
  { name: "signup", path: "/signup" },
  { name: "login", path: "/login", screenshot: true },
  { name: "forgot-password", path: "/forgot-password" },
  { name: "auth-error", path: "/auth/error?reason=other_browser" },
  { name: "invitation-unknown", path: "/invitations/no-such-invitation-token-here" },
  { name: "not-found", path: "/no-such-page" },
  { name: "unsubscribe-unknown", path: "/unsubscribe/no-such-token" },
];

/** A real, pending invitation (its path from inviteByEmail): signed out it offers to sign up or log in. */
export function invitationRoute(path: string, { signedIn = false } = {}): RouteCase {
  return signedIn ? { name: "invitation-someone-else", path } : { name: "invitation", path, screenshot: true };
}

/** The seeded team's owner sees every page (settings and "new project" included). */
export function signedInRoutes(team: SeededTeam): RouteCase[] {
  const base = `/teams/${team.slug}`;
  const board = `${base}/projects/${team.project.key}`;
  return [
    { name: "teams", path: "/teams", screenshot: true },
    { name: "new-team", path: "/teams/new" },
    { name: "account", path: "/account", screenshot: true },
    { name: "account-email", path: "/account/email" },
    { name: "account-password", path: "/account/password" },
    { name: "account-security", path: "/account/security" },
    { name: "account-notifications", path: "/account/notifications" },
    { name: "account-sessions", path: "/account/sessions" },
    { name: "account-delete", path: "/account/delete" },
    { name: "reset-password", path: "/reset-password" },
    { name: "team-overview", path: base, screenshot: true },
    { name: "activity", path: `${base}/activity`, screenshot: true },
    { name: "notifications", path: "/notifications", screenshot: true },
    { name: "notifications-unread", path: "/notifications?show=unread" },
    { name: "members", path: `${base}/members`, screenshot: true },
    { name: "labels", path: `${base}/labels`, screenshot: true },
    { name: "team-settings", path: `${base}/settings` },
    { name: "projects", path: `${base}/projects?archived=1` },
    { name: "new-project", path: `${base}/projects/new` },
    { name: "board", path: board, screenshot: true },
    { name: "project-settings", path: `${board}/settings`, screenshot: true },
    { name: "new-task", path: `${board}/tasks/new` },
    { name: "list", path: `${board}/list?group=status&sort=-due`, screenshot: true },
    { name: "saved-views", path: `${board}/views` },
    { name: "project-calendar", path: `${board}/calendar`, screenshot: true },
    { name: "calendar", path: "/calendar" },
    { name: "account-calendar", path: "/account/calendar" },
    { name: "my-work", path: "/my-work", screenshot: true },
    { name: "task", path: `${board}/tasks/1`, screenshot: true },
    { name: "search", path: `/search?q=${encodeURIComponent(team.tasks[0].title.split(" ")[0])}`, screenshot: true },
    { name: "search-empty", path: "/search" },
    { name: "team-not-found", path: "/teams/no-such-team" },
  ];
}

/**
 * The pages a session at aal1 sees when its account has an authenticator app
 * (support/two-factor.ts enrols one): every signed-in page sends it here.
 */
export const SECOND_FACTOR_ROUTES: RouteCase[] = [{ name: "login-mfa", path: "/login/mfa?next=%2Fteams" }];

/** A team with something in every column and a comment, so no page is empty. */
export const LAYOUT_TASKS = [
  {
    title: "Reconcile quarterly invoices with a deliberately long title that has to wrap on a narrow phone screen",
    description: "First line\nSecond line",
    labels: ["finance", "quarterly"],
    assignee: "owner" as const,
  },
  { title: "Draft the onboarding checklist", status: "todo" as const, labels: ["people"] },
  { title: "Migrate the mailing list", status: "in_progress" as const, assignee: "member" as const },
  { title: "Renew the domain", status: "done" as const },
  { title: "Print flyers", status: "canceled" as const },
];
