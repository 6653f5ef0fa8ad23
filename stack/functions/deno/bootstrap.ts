// Runs one Supabase Edge Function under Deno for the local stack (not part of
// the Node typecheck: Deno code). The function file is the one deployed to
// hosted Supabase: it calls Deno.serve(handler) (or exports { fetch }); as the
// edge runtime does, this bootstrap decides where that server listens: the
// loopback address on a free port, announced on stdout for the stack.
//
// Usage: deno run <permissions> bootstrap.ts <file URL of index.ts> <marker>

const [entry, marker] = Deno.args;

type Handler = (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => Response | Promise<Response>;

function workerError(): Response {
  return Response.json(
    { code: "WORKER_ERROR", message: "Function exited due to an error (please check logs)" },
    { status: 500 },
  );
}

const realServe = Deno.serve.bind(Deno);
let serving = false;

function listen(handler: Handler) {
  if (serving) throw new Error("Deno.serve was called more than once; a function serves one handler");
  serving = true;
  return realServe(
    {
      hostname: "127.0.0.1",
      port: 0,
      onListen: ({ port }) => console.log(`${marker}${port}`),
      onError: (error) => {
        console.error(error);
        return workerError();
      },
    },
    handler,
  );
}

// deno-lint-ignore no-explicit-any
(Deno as any).serve = (first: unknown, second?: unknown) => {
  const handler =
    typeof first === "function"
      ? first
      : typeof second === "function"
        ? second
        : (first as { handler?: unknown } | undefined)?.handler;
  if (typeof handler !== "function") throw new TypeError("Deno.serve needs a handler function");
  return listen(handler as Handler);
};

const mod = await import(entry);
// `export default { fetch }` (the `deno serve` style) works too
if (!serving && mod.default && typeof mod.default.fetch === "function") {
  listen((req, info) => mod.default.fetch(req, info));
}
if (!serving) {
  console.error("the function never called Deno.serve(handler)");
  Deno.exit(1);
}

// The stack holds our stdin open; when it goes away (even killed), so do we.
(async () => {
  for await (const _ of Deno.stdin.readable) {
    /* nothing is sent */
  }
  Deno.exit(0);
})();
