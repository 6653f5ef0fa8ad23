/**
 * /admin/users/:id/factors: a user's MFA factors for the admin API (list,
 * delete, rename), as supabase.auth.admin.mfa calls them.
 */
import { deleteFactor, findFactor } from "../mfa.ts";
import { readParams } from "../params.ts";
import { factorOf, json, userOf, type Handler } from "../router.ts";
import { factorJson } from "../users.ts";

/** GET /admin/users/:id/factors */
export const adminUserFactors: Handler = (c, state) => json(c, (userOf(state).factors ?? []).map(factorJson));

/** DELETE /admin/users/:id/factors/:factor_id */
export const adminUserDeleteFactor: Handler = async (c, state, { ctx }) => {
  const factor = factorOf(state);
  await ctx.db.transaction((tx) => deleteFactor(tx, factor));
  return json(c, factorJson(factor));
};

/** PUT /admin/users/:id/factors/:factor_id */
export const adminUserUpdateFactor: Handler = async (c, state, { ctx }) => {
  const factor = factorOf(state);
  const p = await readParams(c, ctx.config.maxBodyBytes, "AdminUserUpdateFactorParams", {
    friendly_name: "string",
    phone: "string",
  });
  if (p.friendly_name !== "") {
    await ctx.db.query("update auth.mfa_factors set friendly_name = $2, updated_at = now() where id = $1", [
      factor.id,
      p.friendly_name,
    ]);
  }
  return json(c, factorJson(await findFactor(ctx.db, userOf(state), factor.id)));
};
