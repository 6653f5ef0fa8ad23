import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser, type SessionUser } from "./auth.server";
import { forbidden, notFound } from "./http.server";
import { can, type Action } from "./permissions";
import { requireProjectInTeam, type Project } from "./projects.server";
import { requestClient } from "./supabase.server";
import type { SupabaseClient } from "./supabase-types";
import { findTaskRef, type TaskRef } from "./tasks.server";
import { requireTeam, type TeamAccess } from "./teams.server";

/** What a loader or an action receives, as far as the context needs it. */
type RouteArgs = Pick<LoaderFunctionArgs, "request" | "params">;
type Params = RouteArgs["params"];

export interface TeamContext {
  /** the request's backend client (supabase.server's requestClient) */
  supabase: SupabaseClient;
  user: SessionUser;
  team: TeamAccess;
}

export interface ProjectContext extends TeamContext {
  project: Project;
  /** an archived project is read-only */
  archived: boolean;
}

/** A page a role may not open: 403, but for a guest the page isn't there (404). */
function refused(role: TeamAccess["role"]): Response {
  return role === "guest" ? notFound() : forbidden();
}

/**
 * Everything a page under /teams/:team starts with, guards included: the
 * request's backend client, the signed-in person (else a redirect to
 * /login?next=), and the team with their role (else a 404). With `need`, a
 * role that may not do that gets a 403 page (for loaders of pages a role may
 * not open at all; actions answer with the form instead). A guest gets a 404
 * instead: for them the team has only their projects (docs/product.md §20).
 */
export async function requireTeamContext(
  { request, params }: RouteArgs,
  { need }: { need?: Action } = {},
): Promise<TeamContext> {
  const user = await requireUser(request);
  const team = await requireTeam(user.id, params.team);
  if (need && !can(team.role, need)) throw refused(team.role);
  return { supabase: requestClient(), user, team };
}

/**
 * The same, and the project behind `:key` (else a 404). The team and the
 * project are read side by side (the project by the team's slug), not one
 * after the other.
 */
export async function requireProjectContext(
  args: RouteArgs,
  { need }: { need?: Action } = {},
): Promise<ProjectContext> {
  const [ctx, project] = await Promise.all([requireTeamContext(args), requireProjectOnceSignedIn(args)]);
  // an unknown project is a 404 whatever the role
  if (need && !can(ctx.team.role, need)) throw refused(ctx.team.role);
  return { ...ctx, project, archived: project.archived_at !== null };
}

/**
 * The team context and a read of the page's own, side by side: `read` gets
 * the request's client once someone is signed in (the same memoised check as
 * requireTeamContext's, so nobody signed in never reaches the backend) and
 * names what it reads by the URL (team slug, project key…), not by ids the
 * team lookup would return. One round trip instead of two in a row.
 */
export async function withTeamContext<T>(
  args: RouteArgs,
  read: (supabase: SupabaseClient) => Promise<T>,
  { need }: { need?: Action } = {},
): Promise<TeamContext & { read: T }> {
  const readOnceSignedIn = async () => {
    await requireUser(args.request);
    return read(requestClient());
  };
  const [ctx, result] = await Promise.all([requireTeamContext(args, { need }), readOnceSignedIn()]);
  return { ...ctx, read: result };
}

async function requireProjectOnceSignedIn({ request, params }: RouteArgs): Promise<Project> {
  // the same (memoised) check as requireTeamContext's: nobody signed in never reaches the backend
  await requireUser(request);
  return requireProjectInTeam(params.team, params.key);
}

export interface TaskContext extends ProjectContext {
  number: number;
  /** the task named in the URL, or null (a 404 once the role checks that come first have passed) */
  task: TaskRef | null;
}

/**
 * The project context and the task named in the URL, all side by side (the
 * task by the URL's names, not the project's id): what the task's forms
 * (fields, comments, attachments) act on, in one round trip.
 */
export async function requireTaskContext(args: RouteArgs): Promise<TaskContext> {
  const findTask = async () => {
    await requireUser(args.request);
    const number = requireTaskNumber(args.params);
    if (!args.params.team || !args.params.key) throw notFound();
    return {
      number,
      task: await findTaskRef(requestClient(), {
        teamSlug: args.params.team,
        projectKey: args.params.key,
        number,
      }),
    };
  };
  const [ctx, found] = await Promise.all([requireProjectContext(args), findTask()]);
  return { ...ctx, ...found };
}

/** The context's task, or a thrown 404. */
export function foundTask(ctx: TaskContext): TaskRef {
  if (!ctx.task) throw notFound();
  return ctx.task;
}

/** `:number` of a task URL, or a 404 for anything that isn't one. */
export function requireTaskNumber(params: Params): number {
  const raw = params.number;
  if (!raw || !/^\d{1,9}$/.test(raw)) throw notFound();
  return Number(raw);
}

/** /teams/acme/projects/WEB */
export function boardPath(ctx: ProjectContext): string {
  return `/teams/${ctx.team.slug}/projects/${ctx.project.key}`;
}
