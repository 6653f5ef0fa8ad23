import { Avatar } from "~/components/avatar";
import { Form, Link, useLocation } from "@remix-run/react";
import { SubmitButton, ValidatedForm, formState, type FormFailure } from "~/components/form";
import { MARKDOWN_HINT, MarkdownField, previewOf } from "~/components/markdown-field";
import { MentionCombobox } from "~/components/mentions";
import { RichText } from "~/components/rich-text";
import { commentAnchor, timelineSearch } from "~/lib/comments";
import { formatAgo, formatDateTime } from "~/lib/dates";
import { usePageTime } from "~/lib/use-page-time";
import type { Mentionable } from "~/lib/mentions";
import type { TimelineItem } from "~/lib/tasks.server";
import { WithDates } from "~/components/day";

/** a comment comes with its body rendered from Markdown on the server */
type CommentItem = Extract<TimelineItem, { type: "comment" }> & { bodyHtml: string };
type Item = CommentItem | EventItem;
type EventItem = Extract<TimelineItem, { type: "event" }>;
type CommentResult = FormFailure<"comment" | "edit-comment" | "delete-comment"> | undefined;

/**
 * A task's timeline (docs/product.md §10): its comments and what happened to it,
 * oldest first, one page at a time: the latest 50, or an earlier page
 * (`earlierPage`) reached with "Show earlier", a plain link whose cursor is
 * in the URL. Comments are Markdown rendered on the server (@mentions of
 * members shown as the person's name); the author edits and deletes theirs,
 * admins delete any; Preview on both forms.
 */
export function Timeline({
  items,
  commentCount,
  hasEarlier,
  earlierPage,
  members,
  now,
  userId,
  canComment,
  canDeleteAny,
  action,
  result,
  team,
  taskId,
}: {
  items: Item[];
  commentCount: number;
  hasEarlier: boolean;
  earlierPage: boolean;
  members: Mentionable[];
  /** the loader's clock, for "5 min ago" */
  now: string;
  userId: string;
  canComment: boolean;
  canDeleteAny: boolean;
  /** the task's /comments route (with the page's search) */
  action: string;
  result: CommentResult;
  /** the team whose tasks and people comments may refer to */
  team: string;
  /** the task a pasted or dropped picture is attached to */
  taskId: string;
}) {
  const newComment = formState(result, "comment");
  const params = new URLSearchParams(useLocation().search);
  return (
    <section className="comments" aria-labelledby="comments-title">
      {/* the comments and the events, as one timeline: "Activity", with how many comments only when there are some */}
      <h3 id="comments-title">
        {earlierPage ? "Earlier activity" : "Activity"}
        {!earlierPage && commentCount > 0 ? (
          <span className="muted small">
            {" "}
            · {commentCount} {commentCount === 1 ? "comment" : "comments"}
          </span>
        ) : null}
      </h3>
      {hasEarlier || earlierPage ? (
        <p className="muted small comments-paging">
          {hasEarlier ? (
            <Link to={timelineSearch(params, items[0])} preventScrollReset>
              Show earlier
            </Link>
          ) : (
            "The beginning."
          )}
          {earlierPage ? " · " : null}
          {earlierPage ? (
            <Link to={timelineSearch(params, null)} preventScrollReset>
              Back to the latest
            </Link>
          ) : null}
        </p>
      ) : null}
      {items.length === 0 ? <p className="muted">{earlierPage ? "Nothing earlier." : "No comments yet."}</p> : null}
      <ol className="comment-list timeline">
        {items.map((item) =>
          item.type === "comment" ? (
            <Comment
              key={item.id}
              comment={item}
              members={members}
              mine={item.author_id === userId}
              canComment={canComment}
              canDeleteAny={canDeleteAny}
              action={action}
              result={result}
              team={team}
              taskId={taskId}
            />
          ) : (
            <Event key={item.id} event={item} now={now} />
          ),
        )}
      </ol>
      {canComment ? (
        <ValidatedForm
          schema="CommentSchema"
          intent="comment"
          action={action}
          result={result}
          preventScrollReset
          aria-label="New comment"
          // a new form once a comment is posted (not when an event, such as an attachment, arrives)
          key={commentCount}
        >
          <MarkdownField
            name="body"
            label="Add a comment"
            hint={`${MARKDOWN_HINT} Type @ to mention someone in the team.`}
            maxLength={5000}
            rows={4}
            value={newComment.values.body}
            error={newComment.errors.body}
            preview={previewOf(result, "comment", "body")}
            team={team}
            attachTo={taskId}
          />
          <MentionCombobox field="body" members={members} />
          <SubmitButton className="button button-small" pendingText="Posting…">
            Post comment
          </SubmitButton>
        </ValidatedForm>
      ) : null}
    </section>
  );
}

/** "Olive moved this from To do to In progress · 5 min ago" */
function Event({ event, now }: { event: EventItem; now: string }) {
  const { zone } = usePageTime();
  return (
    <li className="timeline-event small" data-event-kind={event.kind}>
      <strong>{event.who}</strong> <WithDates text={event.what} />
      {" · "}
      <time dateTime={event.created_at} title={formatDateTime(event.created_at, zone)} className="muted">
        {formatAgo(event.created_at, now, zone)}
      </time>
    </li>
  );
}

function Comment({
  comment,
  members,
  mine,
  canComment,
  canDeleteAny,
  action,
  result,
  team,
  taskId,
}: {
  comment: CommentItem;
  members: Mentionable[];
  mine: boolean;
  canComment: boolean;
  canDeleteAny: boolean;
  action: string;
  result: CommentResult;
  team: string;
  taskId: string;
}) {
  // an edit form's answer names its comment
  const editResult = result?.intent === "edit-comment" && result.values.commentId === comment.id ? result : undefined;
  const editing = formState(editResult, "edit-comment");
  const editPreview = previewOf(editResult, "edit-comment", "body");
  const hasEditError = Object.keys(editing.errors).length > 0 || editPreview !== null;
  const { zone } = usePageTime();
  return (
    <li className="comment" id={commentAnchor(comment.id)} data-comment-id={comment.id}>
      <p className="comment-meta">
        <Avatar path={comment.author?.avatar_path} name={comment.author?.display_name ?? null} size={20} />{" "}
        <strong>{comment.author?.display_name ?? (comment.author_id ? "A former member" : "Deleted user")}</strong>{" "}
        <time dateTime={comment.created_at} className="muted small">
          {formatDateTime(comment.created_at, zone)}
        </time>
        {comment.edited_at ? <span className="muted small"> (edited)</span> : null}
      </p>
      <RichText html={comment.bodyHtml} className="comment-body" />
      {canComment && (mine || canDeleteAny) ? (
        <div className="comment-actions">
          {mine ? (
            <details open={hasEditError || undefined}>
              <summary>Edit</summary>
              <ValidatedForm
                intent="edit-comment"
                action={action}
                result={editResult}
                preventScrollReset
                aria-label="Edit comment"
              >
                <input type="hidden" name="commentId" value={comment.id} />
                <MarkdownField
                  name="body"
                  label="Your comment"
                  maxLength={5000}
                  rows={4}
                  value={editing.values.body ?? comment.body}
                  error={editing.errors.body}
                  preview={editPreview}
                  team={team}
                  attachTo={taskId}
                />
                <MentionCombobox field="body" members={members} />
                <SubmitButton className="button button-small">Save comment</SubmitButton>
              </ValidatedForm>
            </details>
          ) : null}
          <Form method="post" action={action} className="inline-form" preventScrollReset>
            <input type="hidden" name="intent" value="delete-comment" />
            <input type="hidden" name="commentId" value={comment.id} />
            <button type="submit" className="link-button danger-link">
              Delete comment
            </button>
          </Form>
        </div>
      ) : null}
    </li>
  );
}
