/**
 * A message's headers read from its source, as Mailpit's API gives them:
 * `GET /api/v1/message/{id}/headers` is Go's mail.Header as JSON (each name
 * in canonical form, `Message-Id`, with every value it had, continuation
 * lines unfolded, names in alphabetical order), and the message's
 * `ListUnsubscribe` field is read from `List-Unsubscribe` and
 * `List-Unsubscribe-Post` (RFC 2369, RFC 8058).
 */
export type Headers = Record<string, string[]>;

/** The header block of an RFC 5322 source: everything before the first empty line. */
export function parseHeaders(raw: Buffer): Headers {
  const text = raw.toString("utf8");
  const end = text.search(/\r?\n\r?\n/);
  const block = end < 0 ? text : text.slice(0, end);
  const fields: [string, string][] = [];
  for (const line of block.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && fields.length > 0) {
      // a folded line continues the field above it
      const last = fields[fields.length - 1];
      last[1] = `${last[1]} ${line.trim()}`.trim();
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    fields.push([canonicalName(line.slice(0, colon).trim()), line.slice(colon + 1).trim()]);
  }
  const headers: Headers = {};
  for (const [name, value] of fields) (headers[name] ??= []).push(value);
  return Object.fromEntries(Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Go's textproto.CanonicalMIMEHeaderKey: "message-ID" → "Message-Id"; a name with other characters stays as it is. */
export function canonicalName(name: string): string {
  if (!/^[A-Za-z0-9-]+$/.test(name)) return name;
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_m, dash: string, letter: string) => dash + letter.toUpperCase());
}

export interface ListUnsubscribe {
  Header: string;
  Links: string[];
  Errors: string;
  HeaderPost: string;
}

/** Mailpit's summary of a message's unsubscribe headers: the links in `<…>`, and what is wrong with them. */
export function listUnsubscribe(headers: Headers): ListUnsubscribe {
  const header = headers["List-Unsubscribe"]?.[0] ?? "";
  const post = headers["List-Unsubscribe-Post"]?.[0] ?? "";
  if (!header) return { Header: "", Links: [], Errors: "", HeaderPost: post };
  // comments in parentheses are not links
  const value = header.replace(/\([^)]*\)/g, "").trim();
  const links = [...value.matchAll(/<([^>]*)>/g)].map((m) => m[1].replace(/\s/g, ""));
  const errors: string[] = [];
  if (links.length === 0) errors.push(`"${value}" no valid unsubscribe links found`);
  else if (!/^<.*>$/s.test(value)) errors.push(`"${value}" should be enclosed in <>`);
  for (const link of links) {
    if (!/^mailto:[a-zA-Z0-9]/.test(link) && !/^https?:\/\/[a-zA-Z0-9]/i.test(link))
      errors.push(`"${link}" is neither a mailto: nor an http(s) link`);
  }
  return { Header: header, Links: links, Errors: errors.join(", "), HeaderPost: post };
}
