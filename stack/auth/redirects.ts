/**
 * Where links and OAuth flows may send people back to: the site URL (same
 * scheme and host; any port on loopback), or an entry of the allow list, as
 * Supabase's allow list works: globs where `*` stays within one segment
 * (`.`-separated in the host, `/`-separated in the path) and `**` crosses
 * them. Anything else falls back to the site URL.
 *
 * The target is parsed first and its parts are matched separately (scheme,
 * host, port, then path with query and fragment), never the raw string: in
 * `http://localhost:@1572395042/cb` the text after `localhost:` is userinfo and
 * the host is 93.184.216.34. Userinfo is refused outright, and so is a host
 * that the URL parser had to rewrite (hex, octal or dotless IPv4 forms,
 * percent-encoding, non-ASCII), because what a person reads is then not
 * where the browser goes.
 *
 * Also how the app is told the outcome on the way back: tokens, a message or
 * an error in the fragment (and in the query for PKCE flows).
 */
import type { Context } from "hono";
import type { ServiceContext } from "../context.ts";
import type { AuthError } from "./errors.ts";
import type { SessionResponse } from "./sessions.ts";

export interface RedirectConfig {
  siteUrl: string;
  additionalRedirectUrls: string[];
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function globToRegExp(pattern: string, separators = "./"): RegExp {
  const notSep = `[^${separators.replace(/[\\\]^-]/g, "\\$&")}]`;
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "*") {
      if (pattern[i + 1] === "*") {
        out += ".*";
        i++;
      } else {
        out += `${notSep}*`;
      }
    } else if (ch === "?") {
      out += notSep;
    } else {
      out += ch.replace(/[\\^$+.()|[\]{}]/g, "\\$&");
    }
  }
  return new RegExp(`^${out}$`, "s");
}

interface Parts {
  scheme: string;
  host: string;
  port: string;
  /** path + query + fragment */
  rest: string;
}

const AUTHORITY = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)(.*)$/s;

/** A target URL in parts, or null when it is malformed, carries userinfo or has a host the parser rewrote. */
function targetParts(raw: string): Parts | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.username !== "" || url.password !== "") return null;
  const m = AUTHORITY.exec(raw.trim());
  if (!m) return null;
  const authority = m[2];
  if (authority.includes("@")) return null;
  const rawHost = (
    authority.startsWith("[") ? authority.slice(0, authority.indexOf("]") + 1) : authority.replace(/:[^:]*$/, "")
  ).toLowerCase();
  if (rawHost === "" || rawHost !== url.hostname) return null;
  return {
    scheme: url.protocol.slice(0, -1),
    host: url.hostname,
    port: url.port,
    rest: (url.pathname || "/") + url.search + url.hash,
  };
}

/** An allow-list entry in parts (globs kept); its path defaults to "/" (exactly). */
function patternParts(pattern: string): Parts | null {
  const m = AUTHORITY.exec(pattern.trim());
  if (!m || m[2].includes("@")) return null;
  const authority = m[2];
  let host = authority;
  let port = "";
  if (authority.startsWith("[")) {
    const end = authority.indexOf("]");
    host = authority.slice(0, end + 1);
    port = authority.slice(end + 1).replace(/^:/, "");
  } else if (authority.includes(":")) {
    host = authority.slice(0, authority.lastIndexOf(":"));
    port = authority.slice(authority.lastIndexOf(":") + 1);
  }
  return { scheme: m[1].toLowerCase(), host: host.toLowerCase(), port, rest: m[3] === "" ? "/" : m[3] };
}

function matches(pattern: string, target: Parts): boolean {
  const p = patternParts(pattern);
  if (!p || p.scheme !== target.scheme) return false;
  if (!globToRegExp(p.host, ".").test(target.host)) return false;
  // "*" as the port matches any port, none included
  if (!(p.port === target.port || (p.port !== "" && globToRegExp(p.port, "").test(target.port)))) return false;
  return globToRegExp(p.rest, "/").test(target.rest);
}

export function isRedirectUrlValid(config: RedirectConfig, redirectUrl: string | null | undefined): boolean {
  if (!redirectUrl) return false;
  const target = targetParts(redirectUrl);
  if (!target) return false;
  let base: URL;
  try {
    base = new URL(config.siteUrl);
  } catch {
    return false;
  }
  if (
    base.hostname === target.host &&
    base.protocol === `${target.scheme}:` &&
    (base.port === target.port || LOOPBACK_NAMES.has(target.host))
  ) {
    return true;
  }
  return config.additionalRedirectUrls.some((pattern) => matches(pattern, target));
}

/** The redirect target for a request: redirect_to when allowed, else the Referer when allowed, else the site URL. */
export function resolveRedirect(
  config: RedirectConfig,
  redirectTo: string | null | undefined,
  referer?: string | null,
): string {
  if (isRedirectUrlValid(config, redirectTo)) return redirectTo as string;
  if (isRedirectUrlValid(config, referer)) return referer as string;
  return config.siteUrl;
}

/** Where a flow sends the person back: `redirect_to` from the body, else from the query, checked against the allow list. */
export function redirectFor(ctx: ServiceContext, c: Context, fromBody?: string | null): string {
  return resolveRedirect(ctx.config.auth, fromBody || c.req.query("redirect_to"), c.req.header("referer"));
}

/** Tokens in the fragment, as GoTrue's implicit-flow redirects carry them. */
export function sessionRedirect(redirectTo: string, s: SessionResponse, extra: Record<string, string> = {}): string {
  const params: Record<string, string> = {
    ...extra,
    access_token: s.access_token,
    token_type: s.token_type,
    expires_in: String(s.expires_in),
    expires_at: String(s.expires_at),
    refresh_token: s.refresh_token,
    sb: "",
  };
  const q = new URLSearchParams(
    Object.keys(params)
      .sort()
      .map((k) => [k, params[k]]),
  );
  return `${redirectTo}#${q.toString()}`;
}

const OAUTH_ERROR: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized_client",
  403: "access_denied",
  500: "server_error",
  503: "temporarily_unavailable",
};

/** A message carried back to the app (GoTrue's prepRedirectURL): in the fragment, and in the query for PKCE flows. */
export function messageRedirect(redirectTo: string, message: string, inQuery: boolean): string {
  const u = new URL(redirectTo);
  if (inQuery) u.searchParams.set("message", message);
  u.hash = new URLSearchParams([
    ["message", message],
    ["sb", ""],
  ]).toString();
  return u.toString();
}

/** An error carried back to the app: in the fragment always, and in the query for PKCE flows. */
export function errorRedirect(redirectTo: string, error: AuthError, inQuery: boolean): string {
  const u = new URL(redirectTo);
  const params: [string, string][] = [];
  if (OAUTH_ERROR[error.status]) params.push(["error", OAUTH_ERROR[error.status]]);
  params.push(["error_code", error.code], ["error_description", error.message]);
  if (inQuery) for (const [k, v] of params) u.searchParams.set(k, v);
  const fragment = new URLSearchParams([...params, ["sb", ""]].sort(([a], [b]) => a.localeCompare(b)));
  u.hash = fragment.toString();
  return u.toString();
}
