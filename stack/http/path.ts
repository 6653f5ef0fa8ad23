/**
 * The one spelling of a request's path that the gateway resolves, guards and
 * routes by, decided before any of them sees the request (an audit reached
 * the inbox as `/%69nbox/…` with open CORS: the guard read the raw path, the
 * router a decoded one).
 *
 * - Percent-encoded unreserved characters (A–Z a–z 0–9 - . _ ~) are decoded:
 *   RFC 3986 §6.2.2.2 says `%69nbox` and `inbox` are the same path. Other
 *   escapes keep their meaning (an encoded `/` is a byte of one segment, not
 *   a separator) and are written in upper case.
 * - Dot segments are removed (RFC 3986 §5.2.4), also those that were written
 *   `%2E` (the URL parser already removed the plain ones).
 * - Case is kept and runs of slashes stay: routes match case-sensitively and
 *   segment by segment, so `/INBOX` and `//inbox` name no service at all
 *   (and a Storage key with an empty segment stays the invalid key it is).
 */
export function canonicalPath(pathname: string): string {
  // the common case: nothing to decode and no dot segment
  if (!pathname.includes("%") && !pathname.includes("/.")) return pathname;
  const decoded = pathname.replace(/%([0-9A-Fa-f]{2})/g, (_escape, hex: string) => {
    const code = Number.parseInt(hex, 16);
    return isUnreserved(code) ? String.fromCharCode(code) : `%${hex.toUpperCase()}`;
  });
  return removeDotSegments(decoded);
}

function isUnreserved(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x2d || // -
    code === 0x2e || // .
    code === 0x5f || // _
    code === 0x7e // ~
  );
}

/** RFC 3986 §5.2.4 on an absolute path: `.` goes, `..` takes the segment before it with it (never above the root). */
function removeDotSegments(path: string): string {
  const input = path.split("/");
  const out: string[] = [];
  for (let i = 1; i < input.length; i++) {
    const segment = input[i];
    const last = i === input.length - 1;
    if (segment === "." || segment === "..") {
      if (segment === ".." && out.length > 0) out.pop();
      // a path ending in a dot segment names the folder: keep its trailing slash
      if (last) out.push("");
    } else out.push(segment);
  }
  return `/${out.join("/")}`;
}
