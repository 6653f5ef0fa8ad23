import { Hono, type Context } from "hono";
import type { ServiceContext, StackService } from "../context.ts";
import { isIdentityError, resolveIdentity } from "../http/identity.ts";
import { BodyTooLargeError, readBodyLimited } from "../http/limits.ts";
import { isSameOriginBrowserRequest } from "../http/same-origin.ts";
import { listUnsubscribe, parseHeaders } from "./headers.ts";

/**
 * The local inbox: a page for people (/inbox, /inbox/<id>) and Mailpit's
 * JSON API for tools and tests (/inbox/api/v1/...), field names as Mailpit
 * spells them, newest first. Messages come from _stack.mail_messages.
 */
interface MailRow {
  id: string;
  message_id: string;
  created_at: string;
  from_address: string;
  to_addresses: string[];
  subject: string;
  text_body: string;
  html_body: string;
  read: boolean;
  /** the source as sent; null for mail kept before the inbox kept sources */
  raw: Buffer | null;
}

interface Address {
  Name: string;
  Address: string;
}

/** "Name <addr>" or "addr" → Mailpit's {Name, Address}. */
export function parseAddress(s: string): Address {
  const m = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(s);
  if (m) return { Name: m[1].replace(/^"|"$/g, ""), Address: m[2] };
  return { Name: "", Address: s.trim() };
}

function iso(ts: string): string {
  const t = Date.parse(ts);
  return Number.isNaN(t) ? ts : new Date(t).toISOString();
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 250 ? `${flat.slice(0, 250)}...` : flat;
}

function summary(r: MailRow) {
  return {
    ID: r.id,
    MessageID: r.message_id,
    Read: r.read,
    From: parseAddress(r.from_address),
    To: r.to_addresses.map(parseAddress),
    Cc: [],
    Bcc: [],
    ReplyTo: [],
    Subject: r.subject,
    Created: iso(r.created_at),
    Username: "",
    Tags: [],
    Size: Buffer.byteLength(r.html_body) + Buffer.byteLength(r.text_body),
    Attachments: 0,
    Snippet: snippet(r.text_body),
  };
}

function message(r: MailRow) {
  return {
    ID: r.id,
    MessageID: r.message_id,
    From: parseAddress(r.from_address),
    To: r.to_addresses.map(parseAddress),
    Cc: [],
    Bcc: [],
    ReplyTo: [],
    ReturnPath: parseAddress(r.from_address).Address,
    Subject: r.subject,
    ListUnsubscribe: listUnsubscribe(r.raw ? parseHeaders(r.raw) : {}),
    Date: iso(r.created_at),
    Tags: [],
    Username: "",
    Text: r.text_body,
    HTML: r.html_body,
    Size: Buffer.byteLength(r.html_body) + Buffer.byteLength(r.text_body),
    Inline: [],
    Attachments: [],
  };
}

/**
 * Mailpit's search syntax, the parts tools use: to:, from:, subject:,
 * is:read / is:unread, and bare words (matched against subject and body).
 * Values may be quoted.
 */
export function parseSearch(query: string): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const re = /(-?)(?:(to|from|subject|is):)?(?:"([^"]*)"|(\S+))/gi;
  for (const m of query.matchAll(re)) {
    const negate = m[1] === "-";
    const field = (m[2] ?? "").toLowerCase();
    const value = m[3] ?? m[4] ?? "";
    if (value === "") continue;
    let clause: string;
    if (field === "is") {
      const v = value.toLowerCase();
      if (v !== "read" && v !== "unread") continue;
      clause = v === "read" ? "read" : "not read";
    } else {
      params.push(`%${value.replace(/[\\%_]/g, "\\$&")}%`);
      const p = `$${params.length}`;
      if (field === "to") clause = `exists (select 1 from unnest(to_addresses) a where a ilike ${p})`;
      else if (field === "from") clause = `from_address ilike ${p}`;
      else if (field === "subject") clause = `subject ilike ${p}`;
      else clause = `(subject ilike ${p} or text_body ilike ${p} or html_body ilike ${p})`;
    }
    where.push(negate ? `not ${clause}` : clause);
  }
  return { where, params };
}

function escapeHtml(s: string) {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;color:#222}header{padding:.75rem 1.25rem;background:#1f2937;color:#fff}
header a{color:#fff;text-decoration:none;font-weight:600}main{padding:1rem 1.25rem}table{border-collapse:collapse;width:100%}
td,th{text-align:left;padding:.5rem;border-bottom:1px solid #e5e7eb}tr.unread td{font-weight:600}.muted{color:#6b7280}
iframe{width:100%;height:70vh;border:1px solid #e5e7eb}dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
form{display:inline}`;

function layout(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>
<body><header><a href="/inbox">Local inbox</a></header><main>${body}</main></body></html>`;
}

export function createInboxService(ctx: ServiceContext): StackService {
  const app = new Hono();
  const SUMMARY = `id, message_id, to_json(created_at)#>>'{}' as created_at, from_address, to_addresses, subject, text_body, html_body, read`;
  const COLUMNS = `${SUMMARY}, raw`;

  async function list(where: string[], params: unknown[], start: number, limit: number) {
    const cond = where.length ? `where ${where.join(" and ")}` : "";
    const { rows } = await ctx.db.query<MailRow>(
      `select ${SUMMARY}, null as raw from _stack.mail_messages ${cond} order by created_at desc, id desc limit ${limit} offset ${start}`,
      params,
    );
    const counts = await ctx.db.query<{ total: number; unread: number; matched: number }>(
      `select (select count(*)::int from _stack.mail_messages) as total,
              (select count(*)::int from _stack.mail_messages where not read) as unread,
              (select count(*)::int from _stack.mail_messages ${cond}) as matched`,
      params,
    );
    return { rows, ...counts.rows[0] };
  }

  const paging = (q: (k: string) => string | undefined) => ({
    start: Math.max(0, Number.parseInt(q("start") ?? "0", 10) || 0),
    limit: Math.min(1000, Math.max(1, Number.parseInt(q("limit") ?? "50", 10) || 50)),
  });

  app.get("/api/v1/messages", async (c) => {
    const { start, limit } = paging((k) => c.req.query(k));
    const r = await list([], [], start, limit);
    return c.json({
      total: r.total,
      unread: r.unread,
      count: r.rows.length,
      messages_count: r.matched,
      messages_unread: r.unread,
      start,
      tags: [],
      messages: r.rows.map(summary),
    });
  });

  // Deleting mail needs the service role key (tools, tests) or, for the
  // page's own button, a same-origin form post (stack/http/same-origin.ts).
  const serviceRole = async (c: Context) => {
    const who = await resolveIdentity(c, ctx.keys);
    return !isIdentityError(who) && who.role === "service_role";
  };

  app.delete("/api/v1/messages", async (c) => {
    if (!(await serviceRole(c))) return c.text("the service role key is required to delete mail", 401);
    let text: string;
    try {
      text = new TextDecoder().decode(await readBodyLimited(c.req.raw, ctx.config.maxBodyBytes));
    } catch (error) {
      if (error instanceof BodyTooLargeError) return c.text("the request body is too large", 413);
      throw error;
    }
    let ids: string[] | null = null;
    if (text.trim()) {
      try {
        const body = JSON.parse(text) as { IDs?: unknown };
        if (Array.isArray(body.IDs) && body.IDs.length > 0)
          ids = body.IDs.filter((x): x is string => typeof x === "string");
      } catch {
        return c.text("invalid JSON", 400);
      }
    }
    if (ids) await ctx.db.query("delete from _stack.mail_messages where id = any($1)", [ids]);
    else await ctx.db.query("delete from _stack.mail_messages");
    return c.text("ok");
  });

  app.get("/api/v1/search", async (c) => {
    const { start, limit } = paging((k) => c.req.query(k));
    const { where, params } = parseSearch(c.req.query("query") ?? "");
    const r = await list(where, params, start, limit);
    return c.json({
      total: r.total,
      unread: r.unread,
      count: r.rows.length,
      messages_count: r.matched,
      messages_unread: r.unread,
      start,
      tags: [],
      messages: r.rows.map(summary),
    });
  });

  async function byId(id: string): Promise<MailRow | null> {
    const id2 = id === "latest" ? null : id;
    const { rows } = id2
      ? await ctx.db.query<MailRow>(`select ${COLUMNS} from _stack.mail_messages where id = $1`, [id2])
      : await ctx.db.query<MailRow>(
          `select ${COLUMNS} from _stack.mail_messages order by created_at desc, id desc limit 1`,
        );
    const row = rows[0];
    // bytea: a Buffer from pg, a Uint8Array from PGlite
    return row ? { ...row, raw: row.raw ? Buffer.from(row.raw) : null } : null;
  }

  app.get("/api/v1/message/:id", async (c) => {
    const row = await byId(c.req.param("id"));
    if (!row) return c.text("message not found", 404);
    // Mailpit marks a message read when it is fetched.
    await ctx.db.query("update _stack.mail_messages set read = true where id = $1", [row.id]);
    return c.json(message({ ...row, read: true }));
  });

  // Mailpit's headers (as Go's mail.Header) and source; neither marks the message read
  app.get("/api/v1/message/:id/headers", async (c) => {
    const row = await byId(c.req.param("id"));
    if (!row?.raw) return c.text("message not found", 404);
    return c.json(parseHeaders(row.raw));
  });
  app.get("/api/v1/message/:id/raw", async (c) => {
    const row = await byId(c.req.param("id"));
    if (!row?.raw) return c.text("message not found", 404);
    if (c.req.query("dl") === "1") c.header("content-disposition", `attachment; filename="${row.id}.eml"`);
    return c.body(new Uint8Array(row.raw), 200, { "content-type": "text/plain; charset=utf-8" });
  });

  app.get("/", async (c) => {
    const { rows, total } = await list([], [], 0, 200);
    const items = rows
      .map(
        (
          r,
        ) => `<tr class="${r.read ? "" : "unread"}"><td><a href="/inbox/${encodeURIComponent(r.id)}">${escapeHtml(r.subject)}</a></td>
<td>${escapeHtml(r.to_addresses.join(", "))}</td><td class="muted">${escapeHtml(iso(r.created_at))}</td></tr>`,
      )
      .join("\n");
    const body = total
      ? `<h1>Inbox <span class="muted">(${total})</span></h1>
<form method="post" action="/inbox/clear"><button type="submit">Delete all</button></form>
<table><thead><tr><th>Subject</th><th>To</th><th>Received</th></tr></thead><tbody>${items}</tbody></table>`
      : `<h1>Inbox</h1><p class="muted">No messages yet. Emails the stack sends (sign-up, sign-in links, recovery) appear here.</p>`;
    return c.html(layout("Local inbox", body));
  });

  app.post("/clear", async (c) => {
    if (!isSameOriginBrowserRequest(c.req.raw) && !(await serviceRole(c)))
      return c.text("only the inbox page itself can clear the inbox", 403);
    await ctx.db.query("delete from _stack.mail_messages");
    return c.redirect("/inbox", 303);
  });

  app.get("/:id", async (c) => {
    const row = await byId(c.req.param("id"));
    if (!row)
      return c.html(
        layout("Not found", `<h1>Message not found</h1><p><a href="/inbox">Back to the inbox</a></p>`),
        404,
      );
    await ctx.db.query("update _stack.mail_messages set read = true where id = $1", [row.id]);
    // Links open in the top window so a sign-in link works like it does from a mail client.
    const doc = `<base target="_top">${row.html_body}`;
    const body = `<h1>${escapeHtml(row.subject)}</h1>
<dl><dt>From</dt><dd>${escapeHtml(row.from_address)}</dd><dt>To</dt><dd>${escapeHtml(row.to_addresses.join(", "))}</dd>
<dt>Received</dt><dd>${escapeHtml(iso(row.created_at))}</dd></dl>
<iframe title="Message body" sandbox="allow-popups allow-top-navigation-by-user-activation allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(doc)}"></iframe>
<details><summary>Plain text</summary><pre>${escapeHtml(row.text_body)}</pre></details>`;
    return c.html(layout(row.subject, body));
  });

  return { name: "inbox", http: { mount: "/inbox", app, access: "local", maxBodyBytes: ctx.config.maxBodyBytes } };
}
