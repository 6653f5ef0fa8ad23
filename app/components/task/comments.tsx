import { Avatar } from "~/components/avatar";
import { Form, Link, useLocation } from "@remix-run/react";
import { SubmitButton, TextAreaField, ValidatedForm, formState, type FormFailure } from "~/components/form";
import { commentsSearch } from "~/lib/comments";
import { formatDateTime } from "~/lib/dates";
import { usePageTime } from "~/lib/use-page-time";

interface CommentItem {
  id: string;
  body: string;
  created_at: string;
  edited_at: string | null;
  author_id: string | null;
  author: { display_name: string; avatar_path?: string | null } | null;
}

/**
 * A task's conversation: plain text (never HTML), edit and delete for the
 * author, delete for admins. It shows one page of comments: the latest, or an
 * older one (`olderPage`) reached with "Show older comments", a plain link
 * whose cursor is in the URL.
 */
export function CommentList({
  comments,
  reached,
  hasOlder,
  olderPage,
  userId,
  canComment,
  canDeleteAny,
  action,
  result,
}: {
  comments: CommentItem[];
  /** how many comments the page reaches back over: all of them on the latest page */
  reached: number;
  hasOlder: boolean;
  olderPage: boolean;
  userId: string;
  canComment: boolean;
  canDeleteAny: boolean;
  /** the task's /comments route (with the page's search) */
  action: string;
  result: FormFailure<"comment" | "edit-comment" | "delete-comment"> | undefined;
}) {
  const { zone } = usePageTime();
  const newComment = formState(result, "comment");
  const params = new URLSearchParams(useLocation().search);
  return (
    <section className="comments" aria-labelledby="comments-title">
      <h3 id="comments-title">{olderPage ? "Older comments" : `Comments (${reached})`}</h3>
      {hasOlder || olderPage ? (
        <p className="muted small comments-paging">
          {!olderPage
            ? `Showing the latest ${comments.length}.`
            : hasOlder
              ? `${comments.length} of ${reached} earlier comments.`
              : `The earliest ${comments.length === 1 ? "comment" : `${comments.length} comments`}.`}{" "}
          {hasOlder ? (
            <Link to={commentsSearch(params, comments[0])} preventScrollReset>
              Show older comments
            </Link>
          ) : null}
          {hasOlder && olderPage ? " · " : null}
          {olderPage ? (
            <Link to={commentsSearch(params, null)} preventScrollReset>
              Back to the latest comments
            </Link>
          ) : null}
        </p>
      ) : null}
      {comments.length === 0 ? <p className="muted">{olderPage ? "No older comments." : "No comments yet."}</p> : null}
      <ol className="comment-list">
        {comments.map((comment) => {
          const mine = comment.author_id === userId;
          // an edit form's answer names its comment
          const editResult =
            result?.intent === "edit-comment" && result.values.commentId === comment.id ? result : undefined;
          const editing = formState(editResult, "edit-comment");
          const hasEditError = Object.keys(editing.errors).length > 0;
          return (
            <li key={comment.id} className="comment" data-comment-id={comment.id}>
              <p className="comment-meta">
                <Avatar path={comment.author?.avatar_path} name={comment.author?.display_name ?? null} size={20} />{" "}
                <strong>
                  {comment.author?.display_name ?? (comment.author_id ? "A former member" : "Deleted user")}
                </strong>{" "}
                <time dateTime={comment.created_at} className="muted small">
                  {formatDateTime(comment.created_at, zone)}
                </time>
                {comment.edited_at ? <span className="muted small"> (edited)</span> : null}
              </p>
              <p className="plain-text comment-body">{comment.body}</p>
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
                        <TextAreaField
                          name="body"
                          label="Your comment"
                          maxLength={5000}
                          rows={3}
                          value={editing.values.body ?? comment.body}
                          error={editing.errors.body}
                        />
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
        })}
      </ol>
      {canComment ? (
        <ValidatedForm
          schema="CommentSchema"
          intent="comment"
          action={action}
          result={result}
          preventScrollReset
          aria-label="New comment"
          key={comments.length}
        >
          <TextAreaField
            name="body"
            label="Add a comment"
            maxLength={5000}
            rows={3}
            value={newComment.values.body}
            error={newComment.errors.body}
          />
          <SubmitButton className="button button-small" pendingText="Posting…">
            Post comment
          </SubmitButton>
        </ValidatedForm>
      ) : null}
    </section>
  );
}
