import { ARCHIVED_MESSAGE } from "./board";

/**
 * What a person reads when the database refuses a change: never the
 * database's own message (docs/product.md §8, §9). Our functions and
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
  // fields (§17, §22)
  fields_limit: "A project can have at most 30 fields, and 3 on cards.",
  fields_name_key: "That name is taken in this project.",
  fields_name_length: "A field name has 1 to 40 characters.",
  fields_number_rules: "A number field's minimum is at most its maximum, with 0 to 6 decimals.",
  field_options_limit: "A field can have at most 50 options.",
  field_options_kind: "Only a select or multi-select field has options.",
  field_options_name_key: "That option exists already.",
  field_options_name_length: "An option has 1 to 40 characters.",
  field_not_in_project: "That field isn't one of this project's. Reload the page to see its fields.",
  task_assignees_limit: "A task can have at most 10 assignees.",
  task_assignees_same_team: "The assignee must be a member of this team.",
  // Part I's constraints
  tasks_title_length: "A title has 1 to 200 characters.",
  tasks_description_length: "A description has at most 10,000 characters.",
  tasks_due_on_range: "Enter a real date between 2000-01-01 and 2100-12-31.",
  // start dates and due times (§17)
  tasks_start_on_range: "Enter a real start date between 2000-01-01 and 2100-12-31.",
  tasks_start_before_due: "The start date can't be after the due date.",
  tasks_due_time_needs_due_on: "A due time needs a due date.",
  tasks_due_time_minutes: "Enter a time of day, such as 14:30.",
  projects_team_id_key_key: "That key is taken.",
  teams_slug_key: "That slug is taken.",
  comments_body_length: "A comment has 1 to 5,000 characters.",
  // API tokens and webhooks (§19)
  api_tokens_expiry: "A token lasts at most a year.",
  api_tokens_mode: "Choose read-only or read and write.",
  api_tokens_name_length: "A token's name has 1 to 100 characters.",
  webhook_url_scheme: "A webhook needs an http or https address.",
  webhook_url_private: "That address is on a private network; this deployment doesn't send webhooks there.",
  webhook_url_backend: "A webhook can't point at Teamboard's own backend.",
  webhook_events: "Choose at least one event.",
  webhooks_limit: "A project can have at most 10 webhooks.",
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

/** A field's rules, as the database sends them with a refused value (…_fields.sql: HINT). */
interface FieldRules {
  field: string;
  kind: string;
  min?: number | null;
  max?: number | null;
  decimals?: number | null;
  options?: string[] | null;
}

function numberWords(rules: FieldRules): string {
  const what =
    rules.decimals === 0
      ? "a whole number"
      : rules.decimals
        ? `a number with at most ${rules.decimals} decimal${rules.decimals === 1 ? "" : "s"}`
        : "a number";
  const { min, max } = rules;
  if (min != null && max != null) return `${what} from ${min} to ${max}`;
  if (min != null) return `${what} of at least ${min}`;
  if (max != null) return `${what} of at most ${max}`;
  return what;
}

/** "Points is a number from 0 to 100.": what a field takes, named (§22). */
export function fieldValueMessage(rules: FieldRules): string {
  const name = rules.field;
  switch (rules.kind) {
    case "number":
      return `${name} is ${numberWords(rules)}.`;
    case "text":
      return `${name} is text of at most 500 characters.`;
    case "date":
      return `${name} is a date (YYYY-MM-DD).`;
    case "select":
      return rules.options?.length ? `${name} is one of: ${rules.options.join(", ")}.` : `${name} has no options yet.`;
    case "multi_select":
      return rules.options?.length
        ? `${name} takes options among: ${rules.options.join(", ")}.`
        : `${name} has no options yet.`;
    case "checkbox":
      return `${name} is checked or not (true or false).`;
    case "link":
      return `${name} is an address starting with http:// or https://.`;
    case "person":
      return `${name} is a member of this team.`;
    default:
      return `${name} can't take that value.`;
  }
}

function fieldRules(hint: string | null | undefined): FieldRules | null {
  try {
    const rules = JSON.parse(hint ?? "") as FieldRules;
    return typeof rules?.field === "string" && typeof rules.kind === "string" ? rules : null;
  } catch {
    return null;
  }
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
  if (error.details === "field_value_invalid") {
    const rules = fieldRules(error.hint);
    if (rules) return fieldValueMessage(rules);
  }
  const key = refusalKey(error);
  if (key && BY_KEY[key]) return BY_KEY[key];
  if (error.message && PART_ONE_SENTENCES.has(error.message)) return error.message;
  return null;
}
