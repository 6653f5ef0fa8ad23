import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportProjectCsv } from "~/lib/export.server";
import { requireProjectContext } from "~/lib/team-context.server";

/**
 * GET /teams/:team/projects/:key/export: the board's "Export CSV" link (a
 * plain download, so it works without JavaScript). A resource route: the
 * file comes from the export-project function, named <team>-<KEY>-tasks-<date>.csv.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { supabase, user, team, project } = await requireProjectContext(args);
  return exportProjectCsv(supabase, project, `${team.slug}-${project.key}`, user.timeZone);
}
