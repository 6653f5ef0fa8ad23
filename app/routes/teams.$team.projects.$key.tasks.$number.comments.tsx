import type { ActionFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { TaskPanel } from "~/components/task/task-panel";
import { commentAnchor } from "~/lib/comments";
import { addComment, deleteComment, editComment } from "~/lib/comments.server";
import { writeFailure } from "~/lib/db-errors.server";
import { redirectWithSuccess } from "~/lib/flash.server";
import { archivedResult, forbiddenResult, formFailure } from "~/lib/forms.server";
import { keepingTheForm, notFound } from "~/lib/http.server";
import { can } from "~/lib/permissions";
import { parseIntent, submittedValues } from "~/lib/schemas";
import { boardPath, foundTask, requireTaskContext } from "~/lib/team-context.server";
import { taskUrls } from "~/lib/task-urls";
import { CommentActionSchema } from "~/lib/tasks.schemas";
import { previewAnswer } from "~/lib/text.server";

/**
 * A task's comment writes: post, edit (the author), delete (the author or an
 * admin; row-level security decides). A route of their own, so the board's
 * shouldRevalidate can skip re-reading its columns by the form's action. It
 * has no loader: its parent's data is the task panel's, and after a
 * rejected comment form this route renders that panel with the answer.
 */
export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const ctx = await requireTaskContext(args);
  const { supabase, team, archived } = ctx;
  const { number } = ctx;
  const form = await args.request.formData();
  const parsed = parseIntent(CommentActionSchema, form);
  const values = submittedValues(form);
  const preview = await previewAnswer(supabase, args.params.team!, form, parsed?.intent);
  if (preview) return preview;

  if (!can(team.role, "comment")) return forbiddenResult({ intent: parsed?.intent, values });
  if (!can(team.role, "comment", { archived })) return archivedResult({ intent: parsed?.intent, values });
  const task = foundTask(ctx);
  if (!parsed) throw notFound();

  const urls = taskUrls(args.request.url, boardPath(ctx), number);
  const done = (message: string, to: string) => redirectWithSuccess(message, to);

  switch (parsed.intent) {
    case "comment": {
      if (!parsed.success) return formFailure(parsed);
      const { data: posted, error } = await addComment(supabase, task.id, parsed.data.body);
      if (error) return writeFailure(error, { intent: parsed.intent, values, field: "body" });
      // a new comment shows on the latest page; the page lands at it (without JavaScript too)
      return done("Your comment is posted.", `${urls.task}#${commentAnchor(posted.id)}`);
    }

    case "edit-comment": {
      if (!parsed.success) return formFailure(parsed);
      const { intent } = parsed;
      const { data: edited, error } = await editComment(supabase, task.id, parsed.data.commentId, parsed.data.body);
      if (error) return writeFailure(error, { intent, values, field: "body" });
      if (!edited) return forbiddenResult({ intent, values });
      return done("Your comment is saved.", urls.taskOnCommentPage);
    }

    case "delete-comment": {
      if (!parsed.success) throw notFound();
      const { intent } = parsed;
      const { data: removed, error } = await deleteComment(supabase, task.id, parsed.data.commentId);
      if (error) return writeFailure(error, { intent, values });
      if (!removed) return forbiddenResult({ intent, values });
      return done("The comment is deleted.", urls.taskOnCommentPage);
    }
  }
  throw notFound();
}

export default function TaskWithCommentResult() {
  const commentResult = useActionData<typeof action>();
  return <TaskPanel commentResult={commentResult} />;
}
