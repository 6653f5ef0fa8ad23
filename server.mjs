// The production server (`npm start`): the built Remix app behind Express,
// instead of remix-serve, because a deployed instance needs what remix-serve
// can't be told to do:
//   - GET /healthz for load balancers (200 while serving; 503 once draining),
//     /healthz?deep=1 also asks the backend (auth health and one REST read);
//   - graceful shutdown on SIGTERM/SIGINT: stop accepting, answer in-flight
//     requests (SHUTDOWN_TIMEOUT_MS, default 25 s), then exit;
//   - a request id per request: the access log line, the X-Request-Id header
//     and the 500 page's error id are the same (entry.server's handleError);
//   - the app's request scope around every request it handles: the session
//     cookies a request refreshed go out with its answer, whatever it is
//     (docs/decisions/0025-request-scope.md);
//   - the app's security headers on redirects and static files too;
//   - load shedding: at most MAX_CONCURRENT_REQUESTS (default 32) requests are
//     handled at once, at most MAX_REQUESTS_PER_CLIENT (default 8) of them from
//     one address (this machine's own are not counted); the next wait their turn (form posts before page views)
//     for at most QUEUE_TIMEOUT_MS (default 2000), and one that can't start by
//     then is shed (503, Retry-After: 1; no session is refreshed or cleared):
//     a page view gets a static page from here, a form post or data request
//     is handled by the app as if the backend were unreachable, without
//     calling it (a form keeps what was typed). app/lib/admission.server.ts says why this keeps people signed
//     in under overload. /healthz and static files don't wait. A request's
//     body is read whole before it takes a slot (at most 8 at once per
//     address), so a post whose body trickles in holds none; Node gives a
//     request REQUEST_TIMEOUT_MS (default 120000) to arrive whole, its headers 10 s;
//   - body limits per route (app/lib/body-limits.server.ts: 1 MiB for a form,
//     more only where files are posted): a request whose declared or streamed
//     length goes over its route's is answered 413 before admission, what was
//     read of it dropped; what the client still sends is read and dropped for
//     up to BODY_LINGER_MS (default 10000; nginx's lingering close), so it sees
//     the answer, then the connection is cut;
//   - an access log whose addresses have their secrets redacted (feed,
//     unsubscribe and invitation tokens, sign-in codes: app/lib/log-redaction.ts);
//   - a bounded pool of connections to the backend: at most
//     BACKEND_MAX_CONNECTIONS (default 64) per origin, kept alive; requests
//     beyond them wait for a free connection instead of opening more (Node's
//     fetch opens as many as there are requests), and a connection not made
//     within BACKEND_CONNECT_TIMEOUT_MS (default 1000; undici's own is 10 s)
//     counts as the backend unreachable, so a page says so within 2 s.
// Like remix-serve it compresses responses and serves fingerprinted assets
// with a one-year immutable cache; scripts and stylesheets go out as the
// Brotli or gzip copies the build made of them (scripts/precompress.mjs) to
// browsers that accept those.
//
// Environment: PORT (3000), HOST (all interfaces), TRUST_PROXY (Express's
// "trust proxy": which proxies may set X-Forwarded-*; default loopback), plus
// the app's own (.env.example).
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import { COPIES } from "./scripts/precompress.mjs";
import onHeaders from "on-headers";
import { Agent, setGlobalDispatcher } from "undici";

process.env.NODE_ENV = process.env.NODE_ENV ?? "production";
const BUILD_PATH = path.resolve(process.env.SERVER_BUILD ?? "build/server/index.js");
const PORT = Number(process.env.PORT ?? 3000);
const HOST = process.env.HOST || undefined;
const SHUTDOWN_TIMEOUT_MS = Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 25_000);
const HEALTH_TIMEOUT_MS = 3_000;
const MAX_CONCURRENT_REQUESTS = Number(process.env.MAX_CONCURRENT_REQUESTS ?? 32);
const QUEUE_TIMEOUT_MS = Number(process.env.QUEUE_TIMEOUT_MS ?? 2_000);
const MAX_REQUESTS_PER_CLIENT = Number(process.env.MAX_REQUESTS_PER_CLIENT ?? 8);
const REQUEST_TIMEOUT_MS = Number(process.env.REQUEST_TIMEOUT_MS ?? 120_000);
// Node requires the headers' timeout to be no longer than the request's (0: no request timeout)
const HEADERS_TIMEOUT_MS = REQUEST_TIMEOUT_MS > 0 ? Math.min(10_000, REQUEST_TIMEOUT_MS) : 10_000;
const BODY_LINGER_MS = Number(process.env.BODY_LINGER_MS ?? 10_000);
const BACKEND_MAX_CONNECTIONS = Number(process.env.BACKEND_MAX_CONNECTIONS ?? 64);
const BACKEND_CONNECT_TIMEOUT_MS = Number(process.env.BACKEND_CONNECT_TIMEOUT_MS ?? 1_000);

// every fetch of this process (the app's backend clients, the health check) goes through it
setGlobalDispatcher(
  new Agent({
    connections: BACKEND_MAX_CONNECTIONS > 0 ? BACKEND_MAX_CONNECTIONS : null,
    connect: { timeout: BACKEND_CONNECT_TIMEOUT_MS },
  }),
);

const build = await import(pathToFileURL(BUILD_PATH).href);
const { serverHeaders, serveInRequestScope, createAdmission, shedPageHtml, bodyLimitFor, tooLargePage, loggedPath } =
  build.entry.module;
const admission = createAdmission({
  maxInFlight: MAX_CONCURRENT_REQUESTS,
  maxWaitMs: QUEUE_TIMEOUT_MS,
  maxPerClient: MAX_REQUESTS_PER_CLIENT,
});
// bodies being read (held in memory) at once, per address; the rest wait (their socket unread) until Node's request timeout
const bodies = createAdmission({ maxInFlight: 0, maxWaitMs: REQUEST_TIMEOUT_MS, maxPerClient: 8 });
let draining = false;

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", process.env.TRUST_PROXY ?? "loopback");

// Request id and access log: one line per request, when its response is done.
app.use((req, res, next) => {
  const started = process.hrtime.bigint();
  const id = crypto.randomBytes(4).toString("hex");
  res.locals.requestId = id;
  res.setHeader("X-Request-Id", id);
  onHeaders(res, () => {
    // pages set their own (with the CSP); redirects and everything else get the baseline
    for (const [name, value] of Object.entries(serverHeaders.baseline))
      if (!res.hasHeader(name)) res.setHeader(name, value);
    // a draining instance asks keep-alive clients to reconnect (to another instance)
    if (draining) res.setHeader("Connection", "close");
  });
  res.once("finish", () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const shed = res.locals.shed ? " (shed)" : "";
    console.log(
      `[req ${id}] ${req.method} ${loggedPath(req.originalUrl)} ${res.statusCode} ${ms.toFixed(1)} ms${shed}`,
    );
  });
  next();
});

app.get("/healthz", async (req, res) => {
  res.setHeader("Cache-Control", "no-store");
  if (draining) return void res.status(503).json({ status: "draining" });
  if (req.query.deep === undefined) return void res.json({ status: "ok" });
  const backend = await checkBackend();
  res
    .status(backend.ok ? 200 : 503)
    .json({ status: backend.ok ? "ok" : "backend unavailable", backend: backend.checks });
});

app.use(compression());
app.use(build.publicPath, precompressed(build.assetsBuildDirectory));
app.use(
  build.publicPath,
  express.static(build.assetsBuildDirectory, {
    immutable: true,
    maxAge: "1y",
    index: false,
    setHeaders: (res) => setAll(res, serverHeaders.static),
  }),
);
app.use(
  express.static(path.resolve(path.dirname(BUILD_PATH), "../client"), {
    maxAge: "1h",
    index: false,
    setHeaders: (res) => setAll(res, serverHeaders.static),
  }),
);
const handleWithRemix = createRequestHandler({ build, mode: process.env.NODE_ENV });
app.all("*", async (req, res, next) => {
  // a client that goes away while waiting gives its place up
  const gone = new AbortController();
  const onClose = () => gone.abort();
  res.once("close", onClose);
  const write = req.method !== "GET" && req.method !== "HEAD";
  // a body declared longer than the route takes is refused before anything else, whatever the method
  const limit = bodyLimitFor(req.path);
  if (Number(req.get("content-length") ?? 0) > limit.bytes) {
    res.off("close", onClose);
    return refuseTooLarge(req, res, limit);
  }
  // the whole body first (the app reads it from the request as usual): one still on its way holds no slot
  if (write && !(await bodyArrived(req, res, gone.signal, limit))) return res.off("close", onClose);
  // form posts go before page views (what someone typed is rarely turned away)
  const release = await admission.enter(gone.signal, write, clientOf(req));
  res.off("close", onClose);
  if (gone.signal.aborted) return release?.();
  if (release) res.once("close", release);
  else {
    res.locals.shed = true;
    res.setHeader("Retry-After", "1");
    // a page view: a static page, at next to no cost (rendering the app's would add to the overload)
    if ((req.method === "GET" || req.method === "HEAD") && !req.path.endsWith(".data")) {
      setAll(res, serverHeaders.static);
      res.setHeader("Cache-Control", "no-store");
      return void res.status(503).type("html").send(shedPageHtml);
    }
  }
  // the app's request scope: its id, whether it was shed, and the cookies every answer carries (app/lib/request-scope.server.ts)
  serveInRequestScope(
    req,
    res,
    { id: res.locals.requestId, shed: res.locals.shed === true, client: clientOf(req) },
    () => handleWithRemix(req, res, next),
  );
});

// Node answers 408 and closes a connection whose request headers take longer than 10 s to arrive, or
// whose whole request takes longer than REQUEST_TIMEOUT_MS (checked every second)
const server = http.createServer(
  { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1_000 },
  app,
);
server.listen(PORT, HOST, () => {
  const address = server.address();
  console.log(
    `[server] Teamboard on http://${HOST ?? "localhost"}:${typeof address === "object" && address ? address.port : PORT} (pid ${process.pid})`,
  );
});
// Longer than a load balancer's idle timeout (nginx: 60 s), so the balancer closes idle connections first.
server.keepAliveTimeout = 65_000;

/**
 * The address a request counts against for the per-client caps: the client's
 * (X-Forwarded-For as far as TRUST_PROXY believes it). This machine itself
 * (tools, tests, a local proxy that did not say whom it forwards for) is not
 * capped per address, only by the limits for everyone.
 */
function clientOf(req) {
  const ip = req.ip ?? "";
  return ip === "::1" || ip.startsWith("127.") || ip.startsWith("::ffff:127.") ? undefined : ip;
}

/**
 * Waits until a request's body has arrived whole, before the request takes an
 * admission slot, and leaves it unread for the app: the bytes are read in
 * paused mode and put back (`unshift`) once the request is complete, before
 * the stream has said it ended. At most 8 bodies per address are held in
 * memory at once. Resolves true to go on; false when the request was answered
 * here (413 once more than the route's limit has come) or its client went away.
 */
async function bodyArrived(req, res, gone, limit) {
  if (req.complete) return true;
  const release = await bodies.enter(gone, true, clientOf(req));
  if (!release) {
    if (!gone.aborted) res.status(408).set("Connection", "close").type("text").send("Request Timeout");
    return false;
  }
  try {
    // it may have arrived while this waited: then it lies in the stream, unread
    if (req.complete) return true;
    return await new Promise((resolve) => {
      const chunks = [];
      let size = 0;
      const finish = (arrived) => {
        req.off("readable", onReadable);
        req.off("aborted", onGone);
        req.off("error", onGone);
        if (arrived && chunks.length > 0) req.unshift(Buffer.concat(chunks));
        resolve(arrived);
      };
      const onGone = () => finish(false);
      const onReadable = () => {
        // exactly what is buffered: reading for more at the end would have the stream end before the app reads it
        const n = req.readableLength;
        if (n > 0) {
          size += n;
          if (size > limit.bytes) {
            finish(false);
            return refuseTooLarge(req, res, limit);
          }
          chunks.push(req.read(n));
        }
        // the parser has seen the end; the stream says so once the app has read what is put back
        if (req.complete) finish(true);
      };
      req.on("readable", onReadable);
      req.once("aborted", onGone);
      req.once("error", onGone);
    });
  } finally {
    release();
  }
}

/**
 * 413 for a body over its route's limit, in the route's words (JSON for the
 * panel's script, else a page), before admission and without the app. What
 * the client still sends is read and dropped, nothing kept, for up to
 * BODY_LINGER_MS so that a client which reads only after sending sees the
 * answer; then the connection is cut. No slot, no memory held meanwhile.
 */
function refuseTooLarge(req, res, limit) {
  res.locals.tooLarge = true;
  const linger = setTimeout(() => req.socket.destroy(), BODY_LINGER_MS);
  linger.unref();
  const done = () => clearTimeout(linger);
  req.once("end", done);
  req.socket.once("close", done);
  req.resume();
  setAll(res, serverHeaders.static);
  res.setHeader("Cache-Control", "no-store");
  res.status(413);
  if (limit.json) res.json({ ok: false, message: limit.message });
  else res.type("html").send(tooLargePage(limit.message));
}

/**
 * A fingerprinted asset's Brotli or gzip copy (`x.js.br`, `x.js.gz`, made by
 * the build), when the browser accepts one; otherwise on to express.static,
 * which the compression middleware compresses on the fly. The copies are
 * listed once, at start: the build doesn't change under a running server, and
 * a request path is only ever looked up among them, never joined onto disk.
 */
function precompressed(folder) {
  const root = path.resolve(folder);
  /** "/assets/x.js" → the suffixes of its copies */
  const copies = new Map();
  for (const name of fs.readdirSync(root, { recursive: true })) {
    const copy = COPIES.find(({ suffix }) => name.endsWith(suffix));
    if (!copy) continue;
    const asset = `/${name.slice(0, -copy.suffix.length).split(path.sep).join("/")}`;
    copies.set(asset, [...(copies.get(asset) ?? []), copy.suffix]);
  }
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const made = copies.get(req.path);
    if (!made) return next();
    res.vary("Accept-Encoding");
    // Brotli whenever it is accepted at all (browsers list gzip first with the same weight)
    const copy = COPIES.find((c) => made.includes(c.suffix) && req.acceptsEncodings(c.encoding) === c.encoding);
    if (!copy) return next();
    res.setHeader("Content-Encoding", copy.encoding);
    res.type(path.extname(req.path));
    res.sendFile(
      path.join(root, req.path + copy.suffix),
      { maxAge: "1y", immutable: true, headers: serverHeaders.static },
      (error) => error && next(error),
    );
  };
}

function setAll(res, headers) {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}

async function checkBackend() {
  const url = process.env.SUPABASE_URL;
  const key = process.env.SUPABASE_ANON_KEY;
  const probe = async (name, target, healthy = (status) => status >= 200 && status < 300) => {
    const started = performance.now();
    try {
      const response = await fetch(target, {
        headers: { apikey: key, authorization: `Bearer ${key}` },
        signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
      });
      await response.arrayBuffer();
      return {
        name,
        ok: healthy(response.status),
        status: response.status,
        ms: Math.round(performance.now() - started),
      };
    } catch (error) {
      return {
        name,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
        ms: Math.round(performance.now() - started),
      };
    }
  };
  const checks = await Promise.all([
    probe("auth", `${url}/auth/v1/health`),
    // a read through REST and the database: anonymous callers may not read teams, and the
    // database saying so (401) proves it answers; a database that is down gives 5xx
    probe("rest", `${url}/rest/v1/teams?select=id&limit=1`, (status) => status < 500),
  ]);
  return { ok: checks.every((c) => c.ok), checks: Object.fromEntries(checks.map(({ name, ...rest }) => [name, rest])) };
}

function shutdown(signal) {
  if (draining) return;
  draining = true;
  console.log(`[server] ${signal}: finishing in-flight requests, then exiting`);
  const timer = setTimeout(() => {
    console.error(`[server] requests still open after ${SHUTDOWN_TIMEOUT_MS} ms; exiting anyway`);
    server.closeAllConnections();
    process.exit(1);
  }, SHUTDOWN_TIMEOUT_MS);
  timer.unref();
  server.close(() => {
    console.log("[server] all requests answered; bye");
    process.exit(0);
  });
  server.closeIdleConnections();
}
// repeated signals while draining are ignored (SIGKILL still ends it at once)
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
