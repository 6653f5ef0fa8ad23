import { env } from "./env.server";
import { backendError, notFound } from "./http.server";
import type { SupabaseClient } from "./supabase-types";
import { pageTime } from "./time-zones.server";

/**
 * A project's tasks as CSV, from the `export-project` function, streamed
 * through to the browser as it arrives (a 6,000-task project is never held
 * in memory here). The function reads with the person's own token, so the
 * file holds only what they may see, with times in their own zone; the
 * file is named after today's date in that zone too.
 */
export async function exportProjectCsv(
  supabase: SupabaseClient,
  project: { id: string; key: string },
  fileStem: string,
  timeZone: string,
): Promise<Response> {
  const { data, error } = await supabase.auth.getSession();
  if (error) throw backendError(error);
  const token = data.session?.access_token;
  if (!token) throw notFound();
  let res: Response;
  try {
    res = await fetch(
      `${env.SUPABASE_URL}/functions/v1/export-project?${new URLSearchParams({ project_id: project.id })}`,
      {
        headers: { Authorization: `Bearer ${token}`, apikey: env.SUPABASE_ANON_KEY },
      },
    );
  } catch (cause) {
    throw backendError(cause);
  }
  if (res.status === 404 || res.status === 401) throw notFound();
  if (!res.ok || !res.body) {
    throw backendError({ message: `export-project answered ${res.status}`, status: 503, name: "FunctionsHttpError" });
  }
  const headers = new Headers();
  headers.set("Content-Type", "text/csv; charset=utf-8");
  const date = pageTime(timeZone).today;
  headers.set("Content-Disposition", `attachment; filename="${fileStem}-tasks-${date}.csv"`);
  headers.set("Cache-Control", "private, no-store");
  return new Response(res.body, { status: 200, headers });
}
