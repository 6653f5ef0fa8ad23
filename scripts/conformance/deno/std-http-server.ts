// Deno code (not part of the Node typecheck). The one export of deno.land/std's
// http/server.ts that supabase-js's test functions use, `serve(handler)`, on
// Deno.serve: the conformance runners map the std URL here with each
// function's deno.json, since this machine cannot download it.

type ConnInfo = { localAddr: Deno.Addr; remoteAddr: Deno.Addr };
type Handler = (request: Request, connInfo: ConnInfo) => Response | Promise<Response>;

export function serve(handler: Handler, options: { port?: number; hostname?: string; signal?: AbortSignal } = {}) {
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve(options, (request, info) =>
    handler(request, { localAddr: server.addr, remoteAddr: info.remoteAddr }),
  );
  return server.finished;
}
