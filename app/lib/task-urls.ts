import { boardSearch } from "./board";
import { COMMENTS_CURSOR_PARAM } from "./comments";

/**
 * Where a task's forms send the person back to, keeping the board's filters
 * (and, for a comment edited or deleted on an older page, that page). A new
 * comment shows on the latest page, so `task` drops the comment cursor.
 */
export function taskUrls(requestUrl: string, boardPath: string, number: number) {
  const params = new URL(requestUrl).searchParams;
  const search = boardSearch(params);
  const task = `${boardPath}/tasks/${number}${search}`;
  const cursor = params.get(COMMENTS_CURSOR_PARAM);
  const taskOnCommentPage = cursor
    ? `${task}${task.includes("?") ? "&" : "?"}${new URLSearchParams({ [COMMENTS_CURSOR_PARAM]: cursor })}`
    : task;
  return { board: `${boardPath}${search}`, task, taskOnCommentPage };
}
