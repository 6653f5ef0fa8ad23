// GET ?project_id=<uuid> with the caller's token: the project's tasks as CSV
// (RFC 4180: CRLF line ends, quoted where needed, quotes doubled), streamed a
// page at a time. Read with the caller's own client, so the file holds only
// what row-level security lets them see. Cells that a spreadsheet would run
// as a formula (starting with = + - @, tab or CR) get a leading apostrophe.
// Written for a person opening it in a spreadsheet: a UTF-8 byte order mark
// first (so Excel reads "Zoë" as UTF-8), the words the board shows (status
// and priority names, people's names), times as `YYYY-MM-DD HH:MM` on the
// wall clock of the person's own time zone (profiles.time_zone), the header
// naming the zone ("Created (Europe/Berlin)").
import { callerClient, corsHeaders, refuse, signedInCaller } from "../_shared/http.ts";

const PAGE = 1000;
const columns = (zone: string) => [
  "Task",
  "Title",
  "Description",
  "Status",
  "Priority",
  "Assignee",
  "Due date",
  "Labels",
  `Created (${zone})`,
  `Updated (${zone})`,
  `Completed (${zone})`,
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

type Clock = (timestamp: string | null) => string;

/** `2026-01-02T03:04:05Z` → `2026-01-02 04:04` in Europe/Berlin: a timestamp on `zone`'s wall clock, to the minute. */
function wallClock(zone: string): Clock {
  const format = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  return (timestamp) => {
    if (!timestamp) return "";
    const part = Object.fromEntries(format.formatToParts(new Date(timestamp)).map((p) => [p.type, p.value]));
    return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}`;
  };
}

/** The caller's zone (the database allows only names the runtime knows; anything else reads as UTC). */
async function zoneOf(caller: ReturnType<typeof callerClient>, userId: string): Promise<string> {
  const { data, error } = await caller.from("profiles").select("time_zone").eq("id", userId).maybeSingle();
  if (error) throw new Error(`reading the caller's time zone failed: ${error.message}`);
  const zone = typeof data?.time_zone === "string" ? data.time_zone : "UTC";
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: zone });
    return zone;
  } catch {
    return "UTC";
  }
}

function row(key: string, t: TaskRow, time: Clock): string {
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
    time(t.created_at),
    time(t.updated_at),
    time(t.completed_at),
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
  const zone = await zoneOf(caller, signedIn.id);
  const time = wallClock(zone);

  const encoder = new TextEncoder();
  let offset = 0;
  let header = true;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (header) {
        header = false;
        controller.enqueue(encoder.encode(BOM + line(columns(zone))));
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
      if (rows.length > 0) controller.enqueue(encoder.encode(rows.map((t) => row(project.key, t, time)).join("")));
      offset += rows.length;
      if (rows.length === 0) controller.close();
    },
  });
  const date = time(new Date().toISOString()).slice(0, 10);
  return new Response(body, {
    headers: {
      ...corsHeaders,
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `attachment; filename="${project.key}-tasks-${date}.csv"`,
      "Cache-Control": "no-store",
    },
  });
});
