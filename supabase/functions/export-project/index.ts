// GET ?project_id=<uuid> with the caller's token: the project's tasks as CSV
// (RFC 4180: CRLF line ends, quoted where needed, quotes doubled), streamed a
// page at a time. Read with the caller's own client, so the file holds only
// what row-level security lets them see. Cells that a spreadsheet would run
// as a formula (starting with = + - @, tab or CR) get a leading apostrophe.
// Written for a person opening it in a spreadsheet: a UTF-8 byte order mark
// first (so Excel reads "Zoë" as UTF-8), the words the board shows (status
// and priority names, people's names), times as `YYYY-MM-DD HH:MM` in UTC and
// the header saying so (per-person zones are not in the product yet).
import { callerClient, corsHeaders, refuse, signedInCaller } from "../_shared/http.ts";

const PAGE = 1000;
const COLUMNS = [
  "Task",
  "Title",
  "Description",
  "Status",
  "Priority",
  "Assignee",
  "Due date",
  "Labels",
  "Created (UTC)",
  "Updated (UTC)",
  "Completed (UTC)",
];
/** The board's words for the priorities (app/lib/board.ts PRIORITY_LABELS; a function cannot import the app). */
const PRIORITY_WORDS: Record<string, string> = {
  none: "No priority",
  low: "Low",
  medium: "Medium",
  high: "High",
  urgent: "Urgent",
};
const BOM = "\uFEFF";

interface TaskRow {
  number: number;
  title: string;
  description: string;
  priority: string;
  due_on: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  assignee: { display_name: string } | null;
  /** the project's status, by the name people see on the board */
  status: { name: string } | null;
  /** the team's labels the task carries */
  task_labels: Array<{ label: { name: string } | null }>;
}

/** Text a person typed: neutralised if a spreadsheet would take it for a formula. */
function text(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function cell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function line(values: string[]): string {
  return values.map(cell).join(",") + "\r\n";
}

/** `2026-01-02T03:04:05Z` → `2026-01-02 03:04`, in UTC. */
function utc(timestamp: string | null): string {
  return timestamp ? new Date(timestamp).toISOString().slice(0, 16).replace("T", " ") : "";
}

function row(key: string, t: TaskRow): string {
  return line([
    `${key}-${t.number}`,
    text(t.title),
    text(t.description),
    text(t.status?.name ?? ""),
    PRIORITY_WORDS[t.priority] ?? t.priority,
    text(t.assignee?.display_name ?? ""),
    t.due_on ?? "",
    text(
      t.task_labels
        .map((l) => l.label?.name ?? "")
        .filter(Boolean)
        .sort((a, b) => a.localeCompare(b))
        .join(", "),
    ),
    utc(t.created_at),
    utc(t.updated_at),
    utc(t.completed_at),
  ]);
}

Deno.serve(async (req) => {
  if (req.method === "OPTIONS") return new Response("ok", { headers: corsHeaders });
  if (req.method !== "GET") return refuse(405, "method_not_allowed", "Export with GET ?project_id=.");
  const projectId = new URL(req.url).searchParams.get("project_id") ?? "";
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(projectId)) {
    return refuse(400, "invalid_project", "Which project? project_id must be the project's id.");
  }
  const caller = callerClient(req);
  const signedIn = await signedInCaller(req, caller);
  if (signedIn instanceof Response) return signedIn;

  const { data: project, error } = await caller
    .from("projects")
    .select("id, key, name")
    .eq("id", projectId)
    .maybeSingle();
  if (error) throw new Error(`reading the project failed: ${error.message}`);
  if (!project) return refuse(404, "project_not_found", "Project not found.");

  const encoder = new TextEncoder();
  let offset = 0;
  let header = true;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (header) {
        header = false;
        controller.enqueue(encoder.encode(BOM + line(COLUMNS)));
        return;
      }
      const { data, error } = await caller
        .from("tasks")
        .select(
          "number, title, description, priority, due_on, created_at, updated_at, completed_at, " +
            "assignee:profiles!tasks_assignee_id_fkey(display_name), " +
            "status:project_statuses!tasks_status_in_project_fkey(name), task_labels(label:labels(name))",
        )
        .eq("project_id", project.id)
        .order("number")
        .range(offset, offset + PAGE - 1);
      if (error) {
        console.error(`export of ${project.key} failed at row ${offset}: ${error.message}`);
        controller.error(new Error(error.message));
        return;
      }
      const rows = (data ?? []) as unknown as TaskRow[];
      if (rows.length > 0) controller.enqueue(encoder.encode(rows.map((t) => row(project.key, t)).join("")));
      offset += rows.length;
      if (rows.length === 0) controller.close();
    },
  });
  const date = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      ...corsHeaders,
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `attachment; filename="${project.key}-tasks-${date}.csv"`,
      "Cache-Control": "no-store",
    },
  });
});
