import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";

/**
 * The address a request came from, for rate limits and session metadata.
 *
 * X-Forwarded-For is written by whoever sends the request, so it is believed
 * only when the connection comes from a configured proxy (none by default:
 * the local stack is reached directly). Then the list is read from the right,
 * skipping our own proxies, and the first address they did not add is the
 * client: entries further left are whatever the client claimed.
 */
export function clientIp(c: Context, trustedProxies: readonly string[]): string {
  let remote: string;
  try {
    remote = getConnInfo(c).remote.address ?? "";
  } catch {
    remote = "";
  }
  return fromProxies(remote, c.req.header("x-forwarded-for"), trustedProxies);
}

/** The same for a raw Node request (a WebSocket upgrade, which never reaches Hono). */
export function upgradeClientIp(req: IncomingMessage, trustedProxies: readonly string[]): string {
  const forwarded = req.headers["x-forwarded-for"];
  return fromProxies(
    req.socket.remoteAddress ?? "",
    Array.isArray(forwarded) ? forwarded.join(",") : forwarded,
    trustedProxies,
  );
}

function fromProxies(remoteAddress: string, forwardedFor: string | undefined, trustedProxies: readonly string[]) {
  const remote = normalize(remoteAddress);
  if (!remote) return "unknown";
  if (trustedProxies.length === 0) return remote;
  const trusted = new Set(trustedProxies.map(normalize));
  if (!trusted.has(remote)) return remote;
  const forwarded = (forwardedFor ?? "")
    .split(",")
    .map((s) => normalize(s))
    .filter(Boolean);
  for (let i = forwarded.length - 1; i >= 0; i--) {
    if (!trusted.has(forwarded[i])) return forwarded[i];
  }
  return forwarded[0] ?? remote;
}

/** "::ffff:127.0.0.1" and "127.0.0.1" are one client. */
function normalize(address: string): string {
  const a = address.trim().toLowerCase();
  return a.startsWith("::ffff:") && a.includes(".") ? a.slice(7) : a;
}
