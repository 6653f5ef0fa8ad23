/**
 * Addresses as the logs write them (issue 35 L2): the parts that are secrets
 * are replaced by `[redacted]`. A calendar feed's address is its password
 * (`/calendar/<token>.ics`), and so are an unsubscribe link's
 * (`/unsubscribe/<token>`), an invitation's (`/invitations/<token>`) and a
 * public read-only link's (`/shared/<secret>`);
 * sign-in links carry one-time secrets in their query (`/auth/confirm?
 * token_hash=…`, `/auth/callback?code=…`), and `?next=` can carry any of the
 * paths (a signed-out visitor sent to /login from an invitation). The access
 * log (server.mjs), the error log and the refused-post log write addresses
 * only through this. Routes match case-insensitively and through repeated
 * slashes, so the patterns do too.
 */
const SECRET_PATH = /^(\/+)(calendar|unsubscribe|invitations|shared)(\/+)([^/?#]+)/i;
const SECRET_PARAMS = new Set(["token", "token_hash", "code", "access_token", "refresh_token"]);
const PATH_PARAMS = new Set(["next", "redirect_to"]);
export const REDACTED = "[redacted]";

function redactPath(path: string): string {
  return path.replace(SECRET_PATH, (_whole, lead: string, name: string, slashes: string, secret: string) => {
    // what the route adds to the secret stays readable: a feed's .ics, single fetch's .data
    const suffix = /(\.ics)?(\.data)?$/i.exec(secret)?.[0] ?? "";
    return `${lead}${name}${slashes}${REDACTED}${suffix}`;
  });
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** A request's path and query (Express's originalUrl, or a whole URL's pathname + search) with its secrets redacted. */
export function loggedPath(pathAndQuery: string): string {
  const at = pathAndQuery.indexOf("?");
  const path = redactPath(at === -1 ? pathAndQuery : pathAndQuery.slice(0, at));
  if (at === -1) return path;
  const query = pathAndQuery
    .slice(at + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq === -1) return pair;
      const name = decoded(pair.slice(0, eq)).toLowerCase();
      if (SECRET_PARAMS.has(name)) return `${pair.slice(0, eq)}=${REDACTED}`;
      if (PATH_PARAMS.has(name)) {
        const value = decoded(pair.slice(eq + 1));
        const safe = loggedPath(value);
        return safe === value ? pair : `${pair.slice(0, eq)}=${encodeURIComponent(safe)}`;
      }
      return pair;
    })
    .join("&");
  return `${path}?${query}`;
}

/** The same for a whole URL (a Request's url): its path and query only. */
export function loggedUrlPath(url: string): string {
  const { pathname, search } = new URL(url);
  return loggedPath(pathname + search);
}
