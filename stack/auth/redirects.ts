/**
 * Where links and OAuth flows may send people back to: the site URL (same
 * scheme and host; any port on loopback), or an entry of the allow list,
 * whose globs treat `.` and `/` as separators (`*` stays within one segment,
 * `**` crosses them), as Supabase's allow list does. Anything else falls back
 * to the site URL.
 */
export interface RedirectConfig {
  siteUrl: string;
  additionalRedirectUrls: string[];
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function globToRegExp(pattern: string): RegExp {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "*") {
      if (pattern[i + 1] === "*") {
        out += ".*";
        i++;
      } else {
        out += "[^./]*";
      }
    } else if (ch === "?") {
      out += "[^./]";
    } else {
      out += ch.replace(/[\\^$+.()|[\]{}]/g, "\\$&");
    }
  }
  return new RegExp(`^${out}$`);
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

export function isRedirectUrlValid(config: RedirectConfig, redirectUrl: string | null | undefined): boolean {
  if (!redirectUrl) return false;
  const base = parse(config.siteUrl);
  const target = parse(redirectUrl);
  if (!base || !target) return false;
  if (
    base.hostname === target.hostname &&
    base.protocol === target.protocol &&
    (base.port === target.port || LOOPBACK_NAMES.has(target.hostname))
  ) {
    return true;
  }
  const isHttp = target.protocol === "http:" || target.protocol === "https:";
  if (/^[0-9]+$/.test(target.hostname)) return false;
  if (isHttp && !/^(\[[0-9a-f:.]+\]|[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?)$/.test(target.hostname)) return false;
  return config.additionalRedirectUrls.some((pattern) => globToRegExp(pattern).test(redirectUrl));
}

/** The redirect target for a request: redirect_to when allowed, else the Referer when allowed, else the site URL. */
export function resolveRedirect(config: RedirectConfig, redirectTo: string | null | undefined, referer?: string | null): string {
  if (isRedirectUrlValid(config, redirectTo)) return redirectTo as string;
  if (isRedirectUrlValid(config, referer)) return referer as string;
  return config.siteUrl;
}
