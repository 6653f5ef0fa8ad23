import type { ActionFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { TaskPanel, type AttachmentFormResult } from "~/components/task/task-panel";
import { attachmentIntent } from "~/lib/attachments.server";
import { redirectWithSuccess } from "~/lib/flash.server";
import { archivedResult, forbiddenResult, formFailure } from "~/lib/forms.server";
import { backendUnavailableResult, keepingTheForm } from "~/lib/http.server";
import { can } from "~/lib/permissions";
import { submittedValues } from "~/lib/schemas";
import { boardPath, foundTask, requireTaskContext } from "~/lib/team-context.server";
import { taskUrls } from "~/lib/task-urls";

/**
 * A task's attachment forms without JavaScript: attach files (multipart),
 * delete one (the uploader, an admin or the owner; row-level security and the
 * bucket's policies decide). No loader: after a refusal this route renders
 * the parent's task panel with the answer beside the form.
 */
export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const ctx = await requireTaskContext(args);
  const { supabase, team, archived } = ctx;
  const { number } = ctx;
  const tooLarge = attachmentIntent.bodyTooLarge(args.request);
  if (tooLarge) return formFailure({ intent: "attach", errors: { files: tooLarge }, values: {} });
  const form = await args.request.formData();
  const intent = String(form.get("intent") ?? "");
  const values = submittedValues(form);
  if (!can(team.role, "comment")) return forbiddenResult({ intent, values });
  if (!can(team.role, "comment", { archived })) return archivedResult({ intent, values });
  const task = foundTask(ctx);
  const outcome = await attachmentIntent.run(supabase, task.id, intent, form);
  if (outcome.ok) {
    const urls = taskUrls(args.request.url, boardPath(ctx), number);
    return redirectWithSuccess(outcome.message, urls.task);
  }
  if (outcome.status === 503) return backendUnavailableResult(values, intent);
  return formFailure({ intent, errors: { [outcome.field]: outcome.message }, values }, outcome.status);
}

export default function TaskWithAttachmentResult() {
  const attachmentResult = useActionData<typeof action>() as AttachmentFormResult | undefined;
  return <TaskPanel attachmentResult={attachmentResult} />;
}
