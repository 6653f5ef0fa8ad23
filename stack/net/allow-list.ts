import dns from "node:dns";
import net from "node:net";
import { Agent } from "undici";

/**
 * Which hosts pg_net's requests may go to. A local development tool must not
 * become a way to send traffic elsewhere, so by default only this machine
 * (loopback: 127.0.0.0/8, ::1, and the names `localhost` and `*.localhost`
 * when they resolve there) and the stack's own address are called;
 * `net.allowedHosts` (STACK_NET_ALLOWED_HOSTS) adds hosts: a name or
 * address (any port), `name:port`, `*.example.com` (any name under it), or
 * `*` (anywhere). Configured names are compared as written in the URL; an
 * address is allowed only by itself.
 *
 * A loopback name is trusted for the address it resolves to, not for its
 * spelling (issue 35, L5): a resolver (or /etc/hosts) may send
 * `anything.localhost` anywhere. The connection is made to the very address
 * that was checked (the dispatcher's lookup checks it), so a second answer
 * from DNS cannot change where it goes.
 */
export interface AllowList {
  /** null when `url` may be called, else why not */
  (url: URL): string | null;
  /** what requests are sent through: its lookup refuses a loopback name that resolves elsewhere */
  readonly dispatcher: Agent;
}

export type Resolve = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

function hostOf(url: URL): string {
  const h = url.hostname.toLowerCase();
  return h.startsWith("[") ? h.slice(1, -1) : h;
}

function portOf(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

const isLoopbackName = (host: string) => host === "localhost" || host.endsWith(".localhost");

export function isLoopbackAddress(host: string): boolean {
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

/** Raised by the lookup when a loopback name resolves elsewhere; send.ts records it as a refusal. */
export class ResolvedElsewhere extends Error {
  readonly code = "ERESOLVEDELSEWHERE";
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, which is not this machine (the stack calls itself and loopback only)`);
    this.name = "ResolvedElsewhere";
  }
}

/** The allow-list: loopback, the stack's own host (from its API URL), and the configured entries. */
export function allowList(apiUrl: string, entries: readonly string[], resolve: Resolve = systemResolve): AllowList {
  const own = new URL(apiUrl);
  const named = (url: URL) => hostOf(url) === hostOf(own) || entries.some((e) => matches(e, url));
  const check = (url: URL): string | null => {
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    const host = hostOf(url);
    if (isLoopbackAddress(host) || isLoopbackName(host) || named(url)) return null;
    return `${host} is not an allowed host (the stack calls itself and loopback only; add hosts with STACK_NET_ALLOWED_HOSTS)`;
  };
  // Names allowed only for being loopback names must resolve to loopback, every address of them.
  const lookup = (
    hostname: string,
    options: dns.LookupOptions,
    callback: (error: Error | null, address: string | dns.LookupAddress[], family?: number) => void,
  ) => {
    const host = hostname.toLowerCase();
    const trustedByName = !isLoopbackName(host) || entries.some((e) => matches(e, new URL(`http://${host}`)));
    resolve(host).then(
      (addresses) => {
        const elsewhere = trustedByName ? undefined : addresses.find((a) => !isLoopbackAddress(a.address));
        if (elsewhere) return callback(new ResolvedElsewhere(host, elsewhere.address), "", 0);
        if (addresses.length === 0) return callback(Object.assign(new Error("no address"), { code: "ENOTFOUND" }), "");
        if (options.all) return callback(null, addresses as dns.LookupAddress[]);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (error: Error) => callback(error, ""),
    );
  };
  return Object.assign(check, { dispatcher: new Agent({ connect: { lookup } }) });
}
