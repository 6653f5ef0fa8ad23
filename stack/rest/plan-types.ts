/**
 * What a request's plan is made of (PostgREST's Plan/Types, ReadPlan,
 * MutatePlan, CallPlan): the plan-*.ts modules build it from the ApiRequest
 * and the schema cache, deciding every name, alias, join and output and
 * raising every PGRST error; the query-*.ts modules print SQL from it and
 * decide nothing. Values that came with the request are still values here:
 * the printer binds them as parameters.
 */
import type { JsonOp } from "./parse-cursor.ts";
import type { AggFn } from "./parse-select.ts";
import type { Range } from "./parser.ts";
import type { Column, Routine, RoutineParam, Table } from "./schema.ts";

/** A schema-qualified name (a relation, a type or a function). */
export interface QualifiedName {
  schema: string;
  name: string;
}

/** A column of the relation behind `alias`. */
export type ColumnOf = [alias: string, column: string];

/** `left = right`, a join condition. */
export type Equality = [left: ColumnOf, right: ColumnOf];

/** A relation's current row as a value of its table's type (the argument of a function of a row). */
export interface RowValue {
  alias: string;
  /** every column of the table, in order */
  columns: string[];
  type: QualifiedName;
}

/** A column, or a computed field (a function of the row), under a JSON path. */
export interface FieldRef {
  column: Column;
  base: { kind: "column"; alias: string; name: string } | { kind: "computed"; fn: QualifiedName; row: RowValue };
  json: JsonOp[];
  /** a json column read under a path in a filter is compared as jsonb */
  toJsonb: boolean;
}

/** One output column of a level's select list. */
export type Output =
  | { kind: "field"; field: FieldRef | "*"; cast?: string; agg?: AggFn; aggCast?: string; name: string }
  /** `rel(count)`: the row count of an embedded level */
  | { kind: "count"; name: string }
  /** an embedded to-one row (`object`) or to-many rows (`array`) */
  | { kind: "embed"; join: string; as: "object" | "array"; aggregate: string; name: string }
  /** a column a spread embed brings up (an array of values for a to-many spread) */
  | { kind: "spread"; join: string; name: string };

/** What a level reads from. */
export type From =
  | { kind: "relation"; relation: QualifiedName }
  /** the rows of the statement's CTE `pgrst_source` (what a write returned) */
  | { kind: "source" }
  | { kind: "call"; call: CallPlan }
  /** a computed relationship: the function called with the parent's row */
  | { kind: "computed"; fn: QualifiedName; row: RowValue };

/** An embedded level, joined laterally to its parent. */
export interface Join {
  mode: "to-one" | "to-many" | "spread-many";
  inner: boolean;
  /** the alias of the lateral subquery */
  alias: string;
  /** the alias of the to-many rows inside it, and of their JSON array */
  rowsAlias: string;
  aggregate: string;
  /** conditions tying the level's rows to the parent's row (inside the subquery's WHERE, before the level's own) */
  on: Equality[];
  node: ReadNode;
}

export type Test =
  | { kind: "is"; value: "NULL" | "NOT NULL" | "TRUE" | "FALSE" | "UNKNOWN" }
  | { kind: "distinct"; value: string }
  /** `= ANY(array literal)` */
  | { kind: "in"; literal: string }
  | { kind: "fts"; fn: string; config?: string; toTsvector: boolean; value: string }
  | { kind: "op"; sym: string; quant?: "ANY" | "ALL"; value: string };

export type Condition =
  | { kind: "filter"; field: FieldRef; negate: boolean; test: Test }
  /** a filter on an embedded resource's name: is its row (or array) null? */
  | { kind: "embed-null"; join: string; toOne: boolean; aggregate: string; isNull: boolean }
  | { kind: "logic"; op: "and" | "or"; negate: boolean; children: Condition[] };

export interface OrderTerm {
  by:
    | { kind: "field"; field: FieldRef }
    /** a column of a to-one embedded relation, read by a subquery of its own */
    | { kind: "related"; field: FieldRef; relation: QualifiedName; alias: string; on: Equality[] };
  dir?: "ASC" | "DESC";
  nulls?: "FIRST" | "LAST";
}

/** One level of a read: a relation, its outputs, joins, conditions, order and page. */
export interface ReadNode {
  from: From;
  /** the relation's alias, which its fields are read through */
  alias: string;
  /** a many-to-many level's junction table, joined inside the level */
  junction?: { relation: QualifiedName; alias: string; on: Equality[] };
  select: Output[];
  joins: Join[];
  where: Condition[];
  order: OrderTerm[];
  /** positions (1-based) of the outputs to group by, when the level aggregates */
  groupBy: number[];
  /** LIMIT / OFFSET of the level (null: none) */
  range: Range | null;
}

/** A function call and how its arguments are bound. */
export interface CallPlan {
  routine: Routine;
  args:
    | { kind: "none" }
    /** the whole body (or the query string as JSON) as the one parameter */
    | { kind: "single"; value: string; cast: string }
    /** named arguments read from a JSON object by json_to_record */
    | { kind: "named"; json: string | null; params: RoutineParam[] };
}

export type WriteKind = "insert" | "upsert-put" | "update" | "delete";

/** A mutation (PostgREST's MutatePlan) and what it returns. */
export interface MutatePlan {
  kind: WriteKind;
  table: Table;
  /** the columns taken from the body */
  columns: Column[];
  /** the body, bound as json */
  body: string | null;
  /** Prefer: missing=default — the defaults of the body's columns, by name */
  defaults: [column: string, defaultSql: string][] | null;
  conflict: { columns: string[]; update: boolean } | null;
  /** an update's or a delete's conditions */
  where: Condition[];
  /** RETURNING the whole rows (else a 1 per row) */
  returnRows: boolean;
  /** count the rows an upsert inserted (xmax = 0) */
  countInserted: boolean;
  result: { kind: "representation"; node: ReadNode } | { kind: "headers-only"; pk: string[] } | { kind: "none" };
}

/** How the body of an answer is aggregated from its rows (the media type decides the rest). */
export type BodyShape = "rows" | "scalar" | "setof-scalar" | "single-composite";

/** A page of rows: the read node, its page and whether to count all rows exactly. */
export interface PagePlan {
  node: ReadNode;
  shape: BodyShape;
  exactCount: boolean;
}

/** The plan of a request (PostgREST's CrudPlan). */
export type ActionPlan =
  | { kind: "read"; table: Table; page: PagePlan; offset: number }
  | { kind: "mutate"; table: Table; mutate: MutatePlan }
  | { kind: "call"; call: CallPlan; result: CallResult; offset: number };

/** What a function's call answers. */
export type CallResult =
  | { kind: "void" }
  /** rows of a composite type, read like a table */
  | { kind: "composite"; page: PagePlan }
  | { kind: "scalar"; range: Range; shape: BodyShape; exactCount: boolean };
