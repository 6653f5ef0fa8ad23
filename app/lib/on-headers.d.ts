// on-headers (a dependency of the production server and of request-scope.server) ships no types.
declare module "on-headers" {
  import type { ServerResponse } from "node:http";
  /** Calls `listener` once, just before `res` writes its head (status and headers can still change). */
  export default function onHeaders(res: ServerResponse, listener: (this: ServerResponse) => void): void;
}
