import type { ActionFunctionArgs } from "@remix-run/node";
import { taskRef } from "~/lib/board";
import { redirectWithSuccess } from "~/lib/flash.server";
import { backendError, keepingTheForm, notFound } from "~/lib/http.server";
import { boardPath, foundTask, requireTaskContext } from "~/lib/team-context.server";
import { taskUrls } from "~/lib/task-urls";
import { setWatching } from "~/lib/watching.server";

/**
 * Watch / Stop watching (PRODUCT.md §10): anyone who can read the task,
 * viewers too, in an archived project too (it changes nothing of the task).
 * No page of its own: it answers with the task.
 */
export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const ctx = await requireTaskContext(args);
  const { supabase, user, project, number } = ctx;
  const task = foundTask(ctx);
  const intent = (await args.request.formData()).get("intent");
  if (intent !== "watch" && intent !== "unwatch") throw notFound();
  const { error } = await setWatching(supabase, task.id, user.id, intent === "watch");
  if (error) throw backendError(error);
  const ref = taskRef(project.key, number);
  return redirectWithSuccess(
    intent === "watch" ? `You're watching ${ref}.` : `You stopped watching ${ref}.`,
    taskUrls(args.request.url, boardPath(ctx), number).taskOnCommentPage,
  );
}
