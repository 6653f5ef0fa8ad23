import type { Queryable, RequestContext } from "./types.ts";

/**
 * Sets the transaction-local settings PostgREST sets for each request.
 * The role is validated against the known API roles by the caller; here it is
 * passed as a bound parameter to set_config, never spliced into SQL.
 * statement_timeout is set per request as hosted projects set it per role;
 * native PostgreSQL cancels an overrunning statement (57014); PGlite cannot
 * interrupt one, so stack/db/pglite.ts ends the engine's thread at the same
 * deadline and answers the same 57014.
 */
export async function applyRequestContext(tx: Queryable, ctx: RequestContext): Promise<void> {
  await tx.query(
    `select set_config('request.jwt.claims', $1, true),
            set_config('request.method', $2, true),
            set_config('request.path', $3, true),
            set_config('request.headers', $4, true),
            set_config('role', $5, true),
            set_config('statement_timeout', $6, true)`,
    [
      JSON.stringify(ctx.claims ?? {}),
      ctx.method ?? "",
      ctx.path ?? "",
      JSON.stringify(ctx.headers ?? {}),
      ctx.role,
      String(Math.max(0, Math.floor(ctx.statementTimeoutMs ?? 0))),
    ],
  );
}
