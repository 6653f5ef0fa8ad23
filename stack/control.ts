import { Hono, type Context } from "hono";
import type { ServiceContext, StackService } from "./context.ts";
import { isIdentityError, resolveIdentity } from "./http/identity.ts";

/**
 * /_stack: the stack's own controls for tests and benchmarks, with the
 * service role key only. GET/DELETE /_stack/requests reads and clears the
 * request log (stack/request-log.ts), GET /_stack/requests/tally its running
 * counts. Local-only, and not measured itself (it is what reads the measures).
 */
export function createControlService(ctx: ServiceContext): StackService {
  const app = new Hono();
  const serviceRole = async (c: Context) => {
    const who = await resolveIdentity(c, ctx.keys);
    return !isIdentityError(who) && who.role === "service_role";
  };
  const refused = (c: Context) => c.json({ message: "service role required" }, 401);

  app.on(["GET", "DELETE"], "/requests", async (c) => {
    if (!(await serviceRole(c))) return refused(c);
    if (c.req.method === "DELETE") {
      ctx.requests.clear();
      return c.body(null, 204);
    }
    return c.json(ctx.requests.list(Number(c.req.query("since") ?? 0)));
  });
  app.get("/requests/tally", async (c) => {
    if (!(await serviceRole(c))) return refused(c);
    return c.json(ctx.requests.tally());
  });

  return {
    name: "control",
    http: { mount: "/_stack", app, access: "local", maxBodyBytes: 0, measured: false },
  };
}
