import { Hono, type Context } from "hono";
import type { ServiceContext, StackService } from "../context.ts";
import type { StorageEnv } from "./env.ts";
import { StorageError, storageErrors } from "./errors.ts";
import { FileStore } from "./files.ts";
import { ROUTES } from "./routes.ts";
import { seedBucketObjects } from "./seed-objects.ts";

/**
 * Supabase Storage-compatible service, mounted at /storage/v1: the routes
 * storage-js calls (routes.ts), answered in Storage's error shape.
 */
export function createStorageService(ctx: ServiceContext): StackService & {
  store: FileStore;
  /** a fresh database: the files config.toml's `[storage.buckets.*] objects_path` names (seed-objects.ts) */
  seedObjects(): Promise<number>;
} {
  const store = FileStore.open(ctx.config.dataDir);
  store.sweepTemp();
  const env: StorageEnv = { ctx, store };
  const app = new Hono();

  app.all("*", async (c) => {
    try {
      return await dispatch(env, c);
    } catch (error) {
      if (error instanceof StorageError) return c.json(error.body(), error.httpStatus as 400);
      // the client went away mid-upload: nothing was stored (the temporary file is gone), no one to answer
      if ((error as Error)?.message === "aborted")
        return c.json(storageErrors.invalidRequest("The upload was interrupted").body(), 400);
      console.error("[storage] unexpected error:", error);
      return c.json(storageErrors.internal().body(), 500);
    }
  });
  // an upload may carry a multipart envelope around a file of the largest size
  const maxBodyBytes = ctx.config.storage.fileSizeLimit + 1024 * 1024;
  return {
    name: "storage",
    http: { mount: "/storage/v1", app, access: "api", maxBodyBytes },
    store,
    seedObjects: () => seedBucketObjects(env, ctx.config.functions.configFile),
    close: () => store.close(),
  };
}

/** The first route whose method and (raw, still encoded) path match. */
function dispatch(env: StorageEnv, c: Context): Promise<Response> {
  const path = new URL(c.req.url).pathname.replace(/^.*?\/storage\/v1/, "");
  for (const route of ROUTES) {
    if (!route.methods.includes(c.req.method)) continue;
    const m = route.path.exec(path);
    if (m) return route.handle(env, c, m.slice(1));
  }
  throw new StorageError(404, "InvalidRequest", "Route not found", "Not Found", 404);
}
