import { Hono } from "hono";
import type { ServiceContext, StackService } from "../context.ts";
import type { Database } from "../db/types.ts";
import { errors } from "./errors.ts";
import { handleRequest } from "./handler.ts";
import { errorReply } from "./response.ts";
import { loadSchemaCache } from "./schema-load.ts";
import type { SchemaCache } from "./schema.ts";

export type { SchemaCache } from "./schema.ts";

interface CacheHolder {
  /** the current cache, loading it if needed */
  get(): Promise<SchemaCache>;
  /** reload now; resolves when the new cache is in place */
  reload(): Promise<SchemaCache>;
}

/** Running REST services by database, so tests can await a schema reload. */
const services = new WeakMap<Database, CacheHolder>();

/**
 * Reloads the schema cache of the REST service running on `db` and waits for
 * it (what `NOTIFY pgrst, 'reload schema'` does, but awaitable).
 */
export async function reloadSchemaCache(db: Database): Promise<void> {
  const holder = services.get(db);
  if (!holder) throw new Error("no REST service is running on this database");
  await holder.reload();
}

function cacheHolder(ctx: ServiceContext): CacheHolder {
  let current: SchemaCache | null = null;
  let loading: Promise<SchemaCache> | null = null;
  let again = false;
  const schemas = () => (ctx.config.rest.schemas.length ? ctx.config.rest.schemas : ["public"]);
  const load = (): Promise<SchemaCache> => {
    if (loading) {
      // a reload asked for while one runs: run once more after it
      again = true;
      return loading.then(() => (again ? load() : current!));
    }
    again = false;
    loading = loadSchemaCache(ctx.db, schemas())
      .then((c) => {
        current = c;
        return c;
      })
      .finally(() => {
        loading = null;
      });
    return loading;
  };
  return {
    get: () => (current ? Promise.resolve(current) : load()),
    reload: load,
  };
}

/** PostgREST-compatible service, mounted at /rest/v1. */
export async function createRestService(ctx: ServiceContext): Promise<StackService & { reload(): Promise<void> }> {
  const holder = cacheHolder(ctx);
  services.set(ctx.db, holder);
  await holder.get();
  const unlisten = await ctx.db.listen("pgrst", (payload) => {
    const p = payload.trim();
    if (p === "" || p === "reload schema" || p === "reload config") {
      holder.reload().then(
        () => ctx.log("rest", "schema cache reloaded"),
        (e: unknown) => ctx.log("rest", `schema cache reload failed: ${(e as Error).message}`),
      );
    }
  });

  const env = { ctx, cache: () => holder.get() };
  const app = new Hono();
  app.get("/", (c) =>
    c.json({
      swagger: "2.0",
      info: { title: "Teamboard local stack", description: "PostgREST-compatible API", version: "13" },
      paths: {},
    }),
  );
  app.all("/rpc/:fn", (c) => handleRequest(env, c, "rpc", c.req.param("fn")));
  app.all("/:table", (c) => handleRequest(env, c, "table", c.req.param("table")));
  app.all("*", () => {
    const r = errorReply(errors.invalidPath());
    return new Response(r.body, { status: r.status, headers: r.headers });
  });

  return {
    name: "rest",
    http: { mount: "/rest/v1", app, access: "api", maxBodyBytes: ctx.config.maxBodyBytes },
    reload: async () => {
      await holder.reload();
    },
    async close() {
      await unlisten();
      services.delete(ctx.db);
    },
  };
}
