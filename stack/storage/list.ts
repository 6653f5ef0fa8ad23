import type { Queryable } from "../db/types.ts";
import { asCaller, iso, type Caller, type StorageEnv } from "./env.ts";
import { StorageError } from "./errors.ts";

/**
 * Listing a bucket, as the caller (policies decide which objects show):
 *
 * - `list` is hosted's `storage.search`: one folder level under `prefix`,
 *   sub-folders as rows with a null id, filtered by a name that starts with
 *   `search`, sorted and paged by offset.
 * - `list-v2` is hosted's `listObjectsV2`: with `with_delimiter` one level
 *   (folders first met by name, or by their oldest object's time), without it
 *   every object under the prefix; paged by an opaque cursor.
 */

/** `list`: one level under `prefix` (ends with `/` or is empty). */
export interface ListQuery {
  prefix: string;
  limit: number;
  offset: number;
  search: string;
  column: "name" | "created_at" | "updated_at" | "last_accessed_at";
  order: "asc" | "desc";
}

/** `list-v2`. */
export interface ListV2Query {
  prefix: string;
  limit: number;
  cursor: string | null;
  withDelimiter: boolean;
  sortColumn: "name" | "created_at" | "updated_at";
  sortOrder: "asc" | "desc";
}

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

export async function listObjects(env: StorageEnv, caller: Caller, bucket: string, q: ListQuery) {
  const order = q.column === "name" ? "entry" : `${q.column} nulls first, entry`;
  return asCaller(env, caller, async (tx) => {
    const { rows } = await tx.query(
      `with level as (
         select o.*, split_part(substr(o.name, $3 + 1), '/', 1) as entry,
                strpos(substr(o.name, $3 + 1), '/') > 0 as folder
           from storage.objects o
          where o.bucket_id = $1 and o.name like $2 escape '\\' and substr(o.name, $3 + 1) ilike $4 escape '\\'
       ), entries as (
         select distinct on (entry) entry, folder,
                case when folder then null else id end as id,
                case when folder then null else updated_at end as updated_at,
                case when folder then null else created_at end as created_at,
                case when folder then null else last_accessed_at end as last_accessed_at,
                case when folder then null else metadata end as metadata
           from level order by entry, folder
       )
       select entry as name, id, ${iso("updated_at")} as updated_at, ${iso("created_at")} as created_at,
              ${iso("last_accessed_at")} as last_accessed_at, metadata
         from entries order by ${order} ${q.order} limit $5 offset $6`,
      [bucket, `${likeEscape(q.prefix)}%`, q.prefix.length, `${likeEscape(q.search)}%`, q.limit, q.offset],
    );
    return rows;
  });
}

interface Cursor {
  startAfter: string;
  sortOrder?: string;
  sortColumn?: string;
  sortColumnAfter?: string;
}

const CURSOR_PARTS: [string, keyof Cursor][] = [
  ["l", "startAfter"],
  ["o", "sortOrder"],
  ["c", "sortColumn"],
  ["a", "sortColumnAfter"],
];

/** Hosted's continuation token: base64 of `l:<name>\no:<order>\nc:<column>\na:<time>` (parts present when set). */
export function encodeCursor(cursor: Cursor): string {
  const lines = CURSOR_PARTS.filter(([, field]) => cursor[field]).map(([key, field]) => `${key}:${cursor[field]}`);
  return Buffer.from(lines.join("\n")).toString("base64");
}

const badCursor = () => new StorageError(400, "InvalidParameter", "Invalid Parameter continuation token");

export function decodeCursor(token: string): Cursor {
  const cursor: Cursor = { startAfter: "", sortOrder: "asc" };
  for (const part of Buffer.from(token, "base64").toString().split("\n")) {
    const m = /^(\S):(.*)/.exec(part);
    const field = m && CURSOR_PARTS.find(([key]) => key === m[1])?.[1];
    if (!m || !field) throw badCursor();
    cursor[field] = m[2];
  }
  // what reaches SQL as a time must be one (hosted's query would fail on it)
  if (cursor.sortColumnAfter && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$/.test(cursor.sortColumnAfter))
    throw badCursor();
  return cursor;
}

interface Entry {
  key?: string;
  name: string;
  id: string | null;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: unknown;
}

export async function listObjectsV2(env: StorageEnv, caller: Caller, bucket: string, q: ListV2Query) {
  const cursor = q.cursor ? decodeCursor(q.cursor) : null;
  const order = (cursor?.sortOrder || q.sortOrder) === "desc" ? "desc" : "asc";
  const column = cursor?.sortColumn || q.sortColumn;
  const sortColumn = column === "created_at" || column === "updated_at" ? column : "name";
  const page = { bucket, prefix: q.prefix, fetch: q.limit + 1, order, sortColumn, cursor } as const;
  const rows = await asCaller(env, caller, (tx) => (q.withDelimiter ? oneLevel(tx, page) : allUnder(tx, page)));

  const hasNext = rows.length > q.limit;
  const shown = rows.slice(0, q.limit);
  const folders = shown.filter((r) => r.id === null).map((r) => ({ ...r, name: r.name.replace(/\/?$/, "/") }));
  const objects = shown.filter((r) => r.id !== null);
  if (!hasNext) return { hasNext, folders, objects };
  const last = shown[shown.length - 1];
  const nextCursor = encodeCursor({
    startAfter: last.name,
    sortOrder: cursor?.sortOrder || q.sortOrder,
    sortColumn: cursor?.sortColumn || q.sortColumn,
    sortColumnAfter: sortColumn !== "name" ? (last[sortColumn] ?? undefined) : undefined,
  });
  return { hasNext, nextCursor, nextCursorKey: last.name, folders, objects };
}

interface Page {
  bucket: string;
  prefix: string;
  fetch: number;
  order: "asc" | "desc";
  sortColumn: "name" | "created_at" | "updated_at";
  cursor: Cursor | null;
}

/** After the cursor: by (time, name) when sorted by a time, by name otherwise. */
function afterCursor(page: Page, params: unknown[], nameExpr: string, timeExpr: string): string {
  if (!page.cursor) return "true";
  const op = page.order === "asc" ? ">" : "<";
  params.push(page.cursor.startAfter);
  const start = `$${params.length}`;
  if (page.sortColumn === "name") return `${nameExpr} collate "C" ${op} ${start}`;
  params.push(page.cursor.sortColumnAfter ?? "");
  return `(date_trunc('milliseconds', ${timeExpr}), ${nameExpr} collate "C")
          ${op} (coalesce(nullif($${params.length}, '')::timestamptz, 'epoch'::timestamptz), ${start})`;
}

function orderBy(page: Page, nameExpr: string, timeExpr: string): string {
  const byName = `${nameExpr} collate "C" ${page.order}`;
  if (page.sortColumn === "name") return byName;
  return `coalesce(date_trunc('milliseconds', ${timeExpr}), 'epoch'::timestamptz) ${page.order}, ${byName}`;
}

const OUTPUT = `id, name, metadata, ${iso("updated_at")} as updated_at, ${iso("created_at")} as created_at,
  ${iso("last_accessed_at")} as last_accessed_at`;

/** Every object under the prefix (no delimiter). */
async function allUnder(tx: Queryable, page: Page): Promise<Entry[]> {
  const params: unknown[] = [page.bucket, page.prefix, page.fetch];
  const time = page.sortColumn === "name" ? "created_at" : page.sortColumn;
  const { rows } = await tx.query<Entry>(
    `select ${OUTPUT} from storage.objects
      where bucket_id = $1 and left(name, length($2)) = $2 and ${afterCursor(page, params, "name", time)}
      order by ${orderBy(page, "name", time)} limit $3`,
    params,
  );
  return rows;
}

/**
 * One level: an object whose name goes on past the prefix to a `/` stands
 * for its folder (named up to that `/`, without it); folders sort by that
 * name with its `/` (where their objects are), or by their oldest object.
 * A cursor naming a folder resumes after everything in it.
 */
async function oneLevel(tx: Queryable, page: Page): Promise<Entry[]> {
  const levels = page.prefix ? page.prefix.split("/").length : 1;
  const params: unknown[] = [page.bucket, page.prefix, page.fetch, levels];
  const timed = page.sortColumn !== "name";
  const time = timed ? page.sortColumn : "created_at";
  let filter = "true";
  if (page.cursor && !timed) {
    params.push(page.cursor.startAfter);
    const start = `$${params.length}`;
    const op = page.order === "asc" ? ">" : "<";
    const key = `case when exists (select 1 from level where left(name, length(${start}) + 1) = ${start} || '/')
                 then ${start} || '/' else ${start} end`;
    filter = `sort_name collate "C" ${op} (${key})`;
  } else if (page.cursor) filter = afterCursor(page, params, "name", time);
  const { rows } = await tx.query<Entry>(
    `with level as (
       select o.name, o.id, o.metadata, o.updated_at, o.created_at, o.last_accessed_at,
              case when strpos(substr(o.name, length($2) + 1), '/') > 0
                   then left(o.name, length($2) + strpos(substr(o.name, length($2) + 1), '/')) end as common_prefix
         from storage.objects o
        where o.bucket_id = $1 and left(o.name, length($2)) = $2
     ), entries as (
       select rtrim(common_prefix, '/') as name, null::uuid as id, null::jsonb as metadata,
              ${timed ? "min(created_at)" : "null::timestamptz"} as updated_at,
              ${timed ? "min(created_at)" : "null::timestamptz"} as created_at,
              null::timestamptz as last_accessed_at, common_prefix as sort_name
         from level where common_prefix is not null group by common_prefix
       union all
       select name, id, metadata, updated_at, created_at, last_accessed_at, name as sort_name
         from level where common_prefix is null
     )
     select split_part(name, '/', $4) as key, ${OUTPUT} from entries
      where ${filter}
      order by ${timed ? orderBy(page, "name", time) : `sort_name collate "C" ${page.order}`} limit $3`,
    params,
  );
  return rows;
}
