import { boardSearch } from "./board";
import { TIMELINE_CURSOR_PARAM } from "./comments";

/**
 * Where a task's forms send the person back to, keeping the board's filters
 * (and, for a comment edited or deleted on an earlier page of the timeline, that page). A new
 * comment shows on the latest page, so `task` drops the timeline cursor.
 */
export function taskUrls(requestUrl: string, boardPath: string, number: number) {
  const params = new URL(requestUrl).searchParams;
  const search = boardSearch(params);
  const task = `${boardPath}/tasks/${number}${search}`;
  const cursor = params.get(TIMELINE_CURSOR_PARAM);
  const taskOnCommentPage = cursor
    ? `${task}${task.includes("?") ? "&" : "?"}${new URLSearchParams({ [TIMELINE_CURSOR_PARAM]: cursor })}`
    : task;
  return { board: `${boardPath}${search}`, task, taskOnCommentPage };
}
