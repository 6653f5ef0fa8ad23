/**
 * /admin/users/:id/passkeys: a user's passkeys for the admin API (list,
 * delete), served whether or not passkey sign-in is on, as GoTrue's router
 * serves them.
 */
import { credentialsOf, deletePasskey, findPasskey, passkeyJson } from "../passkey-store.ts";
import { json, userOf, type Handler } from "../router.ts";

/** GET /admin/users/:id/passkeys */
export const adminPasskeyList: Handler = async (c, state, { ctx }) =>
  json(c, (await credentialsOf(ctx.db, userOf(state).id)).map(passkeyJson));

/** DELETE /admin/users/:id/passkeys/:passkey_id */
export const adminPasskeyDelete: Handler = async (c, state, { ctx }) => {
  const cred = await findPasskey(ctx.db, userOf(state).id, c.req.param("passkey_id") ?? "");
  await deletePasskey(ctx.db, cred.id);
  return c.body(null, 204);
};
