/**
 * The one database interface every service of the local stack talks to.
 * Two implementations: embedded PGlite (default) and a native PostgreSQL pool
 * (when DATABASE_URL is given). Services never know which one they have.
 *
 * Value parsing is the same on both: int2/int4/float → number, int8 → number
 * (ids beyond 2^53 are not used here), numeric → string, json/jsonb → parsed,
 * bool → boolean, date/timestamp/timestamptz → the string Postgres printed
 * (ISO style, UTC). Services that need the wire format of PostgREST build
 * their JSON inside SQL instead, so no value is reinterpreted in JavaScript.
 */
export interface QueryResult<T = Record<string, unknown>> {
  rows: T[];
  /** rows affected by INSERT/UPDATE/DELETE, or returned by SELECT */
  rowCount: number;
  fields: { name: string; dataTypeID: number }[];
  /** the statement's command (the first word of its tag: SELECT, INSERT, CREATE…), when the driver reports it */
  command?: string;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Runs several statements with no parameters (migrations, scripts). */
  exec(sql: string): Promise<void>;
}

/** JWT claims as PostgREST puts them into `request.jwt.claims`. */
export type JwtClaims = Record<string, unknown> & { role?: string; sub?: string };

export interface RequestContext {
  claims: JwtClaims;
  /** the database role to switch to (from claims.role; anon when absent) */
  role: string;
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  /** statement_timeout for this request's statements, in ms (0 or absent: none) */
  statementTimeoutMs?: number;
  /**
   * who is asking (the token's sub, else the client's address), for the
   * embedded database's admission (stack/db/admission.ts); absent: not held back
   */
  caller?: string;
}

export interface Database extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** A connection string when one exists (native PostgreSQL only). */
  readonly url: string | null;
  /** BEGIN … COMMIT (ROLLBACK when fn throws). Serialised on PGlite. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * A transaction that runs as the request's role with `request.jwt.claims`
   * (and `request.method`, `request.path`, `request.headers`) set locally,
   * exactly as PostgREST does, so row-level security applies.
   */
  asRequest<T>(ctx: RequestContext, fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** LISTEN on a channel; returns an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** The roles an API token may carry (a token with another `role` is refused by every service). */
export const API_ROLES = ["anon", "authenticated", "service_role"] as const;
export type ApiRole = (typeof API_ROLES)[number];

export function isApiRole(role: unknown): role is ApiRole {
  return (API_ROLES as readonly unknown[]).includes(role);
}
