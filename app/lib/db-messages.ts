import { ARCHIVED_MESSAGE } from "./board";

/**
 * What a person reads when the database refuses a change: never the
 * database's own message (docs/product.md §8, §16). Our functions and
 * triggers raise with a key in DETAIL (supabase/migrations/2026112600…);
 * constraints are known by name. The sentences Part I's functions raise
 * were written for people; they are listed here, so even those reach a
 * page only because the app knows them. Anything else gets a plain refusal.
 */
const BY_KEY: Record<string, string> = {
  // statuses (§11, §16)
  project_statuses_bounds: "A project needs at least one open and one done status, and at most 12.",
  project_statuses_name_key: "That name is taken in this project.",
  project_statuses_name_length: "A status name has 1 to 30 characters.",
  project_statuses_wip_limit_range: "A WIP limit is a whole number from 1 to 999.",
  status_not_in_project: "That status isn't one of this project's. Reload the page to see its statuses.",
  tasks_status_in_project_fkey: "That status isn't one of this project's. Reload the page to see its statuses.",
  status_move_to_missing: "Choose the status its tasks move to.",
  position_negative: "Choose a place of 1 or more.",
  project_archived: ARCHIVED_MESSAGE,
  // labels
  labels_name_key: "That label exists already.",
  labels_name_length: "A label has 1 to 24 characters.",
  labels_limit: "A team can have at most 100 labels.",
  task_labels_limit: "A task can have at most 10 labels.",
  task_labels_same_team: "That label isn't one of this team's.",
  // checklists, sub-tasks, relations
  checklist_items_limit: "A task can have at most 50 checklist items.",
  checklist_items_title_length: "A checklist item has 1 to 200 characters.",
  tasks_one_level: "A sub-task can't have sub-tasks of its own.",
  tasks_subtasks_limit: "A task can have at most 50 sub-tasks.",
  tasks_parent_in_project_fkey: "A sub-task belongs to its parent's project.",
  task_relations_duplicate: "Those tasks are already related that way.",
  task_relations_pair_key: "Those tasks are already related that way.",
  task_relations_mutual_block: "A task can't block a task that blocks it.",
  task_relations_block_cycle: "Those tasks would block each other in a loop.",
  task_relations_not_self: "A task can't be related to itself.",
  task_relations_same_team: "Both tasks must be in this team.",
  // Part I's constraints
  tasks_title_length: "A title has 1 to 200 characters.",
  tasks_description_length: "A description has at most 10,000 characters.",
  tasks_due_on_range: "Enter a real date between 2000-01-01 and 2100-12-31.",
  projects_team_id_key_key: "That key is taken.",
  teams_slug_key: "That slug is taken.",
  comments_body_length: "A comment has 1 to 5,000 characters.",
};

/** Part I's own sentences (…_rpc.sql, …_comments_attachments.sql), for people from the start. */
const PART_ONE_SENTENCES = new Set([
  "A team name is 1–60 characters.",
  "That slug is reserved.",
  "That slug is taken.",
  "Choose another member of the team as the new owner.",
  "The new owner must already be a member of the team.",
  "The owner can't leave the team. Transfer ownership first.",
  "A team must have exactly one owner. Transfer ownership instead.",
  "The assignee must be a member of this team.",
  "The assignee must be able to see this project.",
  "Only people in the team can be added to a project.",
  "A task can have at most 20 attachments.",
  "This invitation has expired. Ask for a new one.",
  "This invitation was already used.",
  "This invitation was withdrawn.",
  ARCHIVED_MESSAGE,
]);

export const REFUSED_MESSAGE = "That change isn't allowed.";

/** An error as PostgREST (through supabase-js) reports it. */
export interface DbError {
  code?: string;
  message?: string;
  details?: string | null;
  hint?: string | null;
}

/** The key of a refusal: our DETAIL, or the constraint a message names ("… constraint "labels_name_key""). */
export function refusalKey(error: DbError): string | null {
  const detail = error.details?.trim() ?? "";
  if (/^[a-z0-9_]+$/.test(detail) && detail in BY_KEY) return detail;
  const named = /constraint "([a-z0-9_]+)"/.exec(error.message ?? "");
  return named ? named[1] : null;
}

/** The words for a refusal, or null when the app doesn't know it (the caller says something plain). */
export function knownMessage(error: DbError): string | null {
  const key = refusalKey(error);
  if (key && BY_KEY[key]) return BY_KEY[key];
  if (error.message && PART_ONE_SENTENCES.has(error.message)) return error.message;
  return null;
}
