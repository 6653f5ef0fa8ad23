// Runs one Supabase Edge Function under Deno for the local stack (not part of
// the Node typecheck: Deno code). The function file is the one deployed to
// hosted Supabase: it calls Deno.serve(handler) (or exports { fetch }); as the
// edge runtime does, this bootstrap decides where that server listens: the
// loopback address on a free port, announced on stdout for the stack.
//
// Only the stack may call that port: it writes a secret as the first line of
// our stdin (out of the function's sight, unlike args or env), and a request
// without it in SECRET_HEADER is answered 403 before the function sees it.
//
// Usage: deno run <permissions> bootstrap.ts <file URL of index.ts> <marker>

const [entry, marker] = Deno.args;
const SECRET_HEADER = "x-stack-worker-secret";

const stdin = Deno.stdin.readable.getReader();
const secret = await readFirstLine();

async function readFirstLine(): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await stdin.read();
    if (done) Deno.exit(0); // the stack went away before we started
    text += decoder.decode(value, { stream: true });
  }
  return text.slice(0, text.indexOf("\n"));
}

/** Compares in time that does not depend on where the strings differ. */
function sameSecret(given: string | null): boolean {
  if (given === null || given.length !== secret.length) return false;
  let diff = 0;
  for (let i = 0; i < secret.length; i++) diff |= given.charCodeAt(i) ^ secret.charCodeAt(i);
  return diff === 0;
}

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
  const guarded: Handler = (req, info) => {
    if (!sameSecret(req.headers.get(SECRET_HEADER))) {
      return new Response("Forbidden: call the function through the stack's /functions/v1/", { status: 403 });
    }
    const headers = new Headers(req.headers);
    headers.delete(SECRET_HEADER);
    return handler(new Request(req, { headers }), info);
  };
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
    guarded,
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
  while (!(await stdin.read()).done) {
    /* nothing more is sent */
  }
  Deno.exit(0);
})();
