import net from "node:net";

/**
 * Which hosts pg_net's requests may go to. A local development tool must not
 * become a way to send traffic elsewhere, so by default only this machine
 * (loopback: localhost, 127.0.0.0/8, ::1) and the stack's own address are
 * called; `net.allowedHosts` (STACK_NET_ALLOWED_HOSTS) adds hosts: a name or
 * address (any port), `name:port`, `*.example.com` (any name under it), or
 * `*` (anywhere). Names are compared as written in the URL, before any DNS
 * lookup; an address is allowed only by itself.
 */
export type AllowList = (url: URL) => string | null;

function hostOf(url: URL): string {
  const h = url.hostname.toLowerCase();
  return h.startsWith("[") ? h.slice(1, -1) : h;
}

function portOf(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

function isLoopback(host: string): boolean {
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (net.isIPv4(host)) return host.startsWith("127.");
  if (net.isIPv6(host)) return host === "::1" || /^::ffff:127\./.test(host);
  return false;
}

function matches(entry: string, url: URL): boolean {
  const e = entry.trim().toLowerCase();
  if (!e) return false;
  if (e === "*") return true;
  const host = hostOf(url);
  const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(e);
  const name = (withPort ? withPort[1] : e).replace(/^\[|\]$/g, "");
  if (withPort && withPort[2] !== portOf(url)) return false;
  if (name.startsWith("*.")) return host.endsWith(name.slice(1));
  return host === name;
}

/** The allow-list: loopback, the stack's own host (from its API URL), and the configured entries. */
export function allowList(apiUrl: string, entries: readonly string[]): AllowList {
  const own = new URL(apiUrl);
  return (url) => {
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    const host = hostOf(url);
    if (isLoopback(host) || host === hostOf(own) || entries.some((e) => matches(e, url))) return null;
    return `${host} is not an allowed host (the stack calls itself and loopback only; add hosts with STACK_NET_ALLOWED_HOSTS)`;
  };
}
