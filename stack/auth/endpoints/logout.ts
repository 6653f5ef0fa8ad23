/** POST /logout: ends this session (`local`), the others (`others`) or all of the user's (`global`, the default). */
import { badRequest } from "../errors.ts";
import { callerOf, type Handler } from "../router.ts";
import { logout as endSessions, type LogoutScope } from "../sessions.ts";

export const logout: Handler = async (c, state, { ctx }) => {
  const caller = callerOf(state);
  const raw = c.req.query("scope") ?? "";
  const scope: LogoutScope | null =
    raw === "" || raw === "global" ? "global" : raw === "local" || raw === "others" ? raw : null;
  if (!scope) throw badRequest("validation_failed", `Unsupported logout scope "${raw}"`);
  await ctx.db.transaction((tx) => endSessions(tx, caller.user.id, caller.sessionId, scope));
  return c.body(null, 204);
};
