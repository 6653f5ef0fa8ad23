/** GET /.well-known/jwks.json: the public keys access tokens verify against (getClaims() reads them). */
import { json, type Handler } from "../router.ts";

export const jwks: Handler = (c, _state, { ctx }) => {
  c.header("cache-control", "public, max-age=600");
  return json(c, ctx.keys.jwks);
};
