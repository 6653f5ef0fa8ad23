import type { ActionFunctionArgs } from "@remix-run/node";
import { TaskPanel } from "~/components/task/task-panel";
import { taskRef } from "~/lib/board";
import { redirectWithSuccess } from "~/lib/flash.server";
import { backendError, keepingTheForm, notFound } from "~/lib/http.server";
import { boardPath, foundTask, requireTaskContext } from "~/lib/team-context.server";
import { taskUrls } from "~/lib/task-urls";
import { setWatching } from "~/lib/watching.server";

/**
 * Watch / Stop watching (docs/product.md §10): anyone who can read the task,
 * viewers too, in an archived project too (it changes nothing of the task).
 * It answers with the task: the panel (so a post without JavaScript that
 * found the backend down gets the page with its form kept, not the action's
 * data).
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

export default function TaskWithWatching() {
  return <TaskPanel />;
}
