// GET ?project_id=<uuid> with the caller's token: the project's tasks as CSV
// (RFC 4180: CRLF line ends, quoted where needed, quotes doubled), streamed a
// page at a time. Read with the caller's own client, so the file holds only
// what row-level security lets them see. Cells that a spreadsheet would run
// as a formula (starting with = + - @, tab or CR) get a leading apostrophe.
// Written for a person opening it in a spreadsheet: a UTF-8 byte order mark
// first (so Excel reads "Zoë" as UTF-8), the words the board shows (status
// and priority names, people's names), times as `YYYY-MM-DD HH:MM` on the
// wall clock of the person's own time zone (profiles.time_zone), the header
// naming the zone ("Created (Europe/Berlin)"). Every assignee, in the order added; then one column per
// field the team defines (docs/product.md §17), in the project's order, its value in words (an option's
// name, a member's name, Yes/No, a number as typed, a date as YYYY-MM-DD).
import { callerClient, corsHeaders, refuse, signedInCaller } from "../_shared/http.ts";

const PAGE = 1000;
const columns = (zone: string, fields: FieldDef[]) => [
  "Task",
  "Title",
  "Description",
  "Status",
  "Priority",
  "Assignees",
  "Due date",
  "Labels",
  `Created (${zone})`,
  `Updated (${zone})`,
  `Completed (${zone})`,
  ...fields.map((f) => f.name),
];

interface FieldDef {
  id: string;
  name: string;
  kind: string;
  options: Array<{ id: string; name: string; position: number }>;
}
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
  /** every assignee, with the order they were added in */
  task_assignees: Array<{ position: number; person: { display_name: string } | null }>;
  /** field id -> canonical value (tasks.fields) */
  fields: Record<string, unknown> | null;
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

/** A field's value as the board's panel says it ("Acme, Globex", "Mia Member", "Yes"). */
function fieldWords(field: FieldDef, value: unknown, names: Map<string, string>): string {
  if (value === undefined || value === null || value === "") return "";
  switch (field.kind) {
    case "select":
    case "multi_select": {
      const ids = (Array.isArray(value) ? value : [value]).map(String);
      return field.options
        .filter((o) => ids.includes(o.id))
        .sort((a, b) => a.position - b.position)
        .map((o) => o.name)
        .join(", ");
    }
    case "checkbox":
      return value === true ? "Yes" : "No";
    case "person":
      return names.get(String(value)) ?? "A former member";
    default:
      return String(value);
  }
}

function row(key: string, t: TaskRow, time: Clock, fields: FieldDef[], names: Map<string, string>): string {
  return line([
    `${key}-${t.number}`,
    text(t.title),
    text(t.description),
    text(t.status?.name ?? ""),
    PRIORITY_WORDS[t.priority] ?? t.priority,
    text(
      [...t.task_assignees]
        .sort((a, b) => a.position - b.position)
        .map((a) => a.person?.display_name ?? "A former member")
        .join(", "),
    ),
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
    ...fields.map((f) => text(fieldWords(f, t.fields?.[f.id], names))),
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
    .select("id, key, name, team_id")
    .eq("id", projectId)
    .maybeSingle();
  if (error) throw new Error(`reading the project failed: ${error.message}`);
  if (!project) return refuse(404, "project_not_found", "Project not found.");
  const zone = await zoneOf(caller, signedIn.id);
  const time = wallClock(zone);
  // the project's fields and the team's members' names (a person field's value), read once
  const [fieldsRead, membersRead] = await Promise.all([
    caller
      .from("fields")
      .select("id, name, kind, position, options:field_options(id, name, position)")
      .eq("project_id", project.id)
      .order("position")
      .order("id"),
    caller.from("team_members").select("user_id, profile:profiles(display_name)").eq("team_id", project.team_id),
  ]);
  if (fieldsRead.error) throw new Error(`reading the fields failed: ${fieldsRead.error.message}`);
  if (membersRead.error) throw new Error(`reading the members failed: ${membersRead.error.message}`);
  const fields = (fieldsRead.data ?? []) as unknown as FieldDef[];
  const names = new Map(
    ((membersRead.data ?? []) as unknown as Array<{ user_id: string; profile: { display_name: string } | null }>).map(
      (m) => [m.user_id, m.profile?.display_name ?? "A former member"],
    ),
  );

  const encoder = new TextEncoder();
  let offset = 0;
  let header = true;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (header) {
        header = false;
        controller.enqueue(encoder.encode(BOM + line(columns(zone, fields))));
        return;
      }
      const { data, error } = await caller
        .from("tasks")
        .select(
          "number, title, description, priority, due_on, created_at, updated_at, completed_at, " +
            "fields, task_assignees(position, person:profiles(display_name)), " +
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
      if (rows.length > 0)
        controller.enqueue(encoder.encode(rows.map((t) => row(project.key, t, time, fields, names)).join("")));
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
