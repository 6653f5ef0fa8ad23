import markdownIt, { type MarkdownIt, type StateCore, type Token } from "markdown-it";

/**
 * Descriptions and comments as Markdown (docs/product.md §14), rendered on
 * the server with markdown-it (CommonMark, plus GitHub's tables,
 * strikethrough, autolinks and task lists) into HTML that is safe to put in
 * the page as it is:
 *   - raw HTML is text (markdown-it's `html: false`);
 *   - links only to http, https and mailto (and this site's own paths), with
 *     `rel="noopener noreferrer nofollow"`; anything else stays text;
 *   - images only from this project's storage: `![…](/attachments/<id>)` of
 *     an attachment the reader may see becomes its thumbnail; an http(s) image
 *     becomes a link; anything else its alt text;
 *   - task list boxes are shown, disabled; a line break is kept (as GitHub
 *     renders comments);
 *   - headings start at h4 (the page's own are h1–h3);
 *   - `KEY-12` and `@username` become links when the reader may see that task
 *     or person, and stay the plain text otherwise (revealing nothing).
 *
 * Two steps, so one request can resolve the references of many texts at
 * once: `parseMarkdown` reads a text and lists what it refers to;
 * `renderMarkdown` prints it with what the reader may see.
 */
export interface TextReferences {
  /** `WEB-12` */
  tasks: Set<string>;
  /** lower-case usernames */
  people: Set<string>;
  /** attachment ids used as images */
  attachments: Set<string>;
}

export interface ResolvedReferences {
  tasks: Map<string, { href: string; title: string }>;
  people: Map<string, { name: string; href: string | null }>;
  /** thumbnail (`src`) and full image (`href`) of each attachment the reader may see */
  images: Map<string, { src: string; href: string; alt: string }>;
}

export interface ParsedText {
  tokens: Token[];
  references: TextReferences;
}

export const NO_REFERENCES: ResolvedReferences = { tasks: new Map(), people: new Map(), images: new Map() };

const ATTACHMENT_PATH = /^\/attachments\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
const REL = "noopener noreferrer nofollow";
/** how deep lists and quotes may nest before the rest reads as text */
const MAX_NESTING = 20;

/** The links a text may have: http(s), mailto, and this site's own paths (`/…`, never `//…` or `/\…`). */
export function allowedLink(url: string): boolean {
  const u = url.trim();
  if (/^(https?:\/\/|mailto:)/i.test(u)) return true;
  return /^\/(?![/\\])/.test(u) && !u.includes("\\");
}

function createMarkdown(): MarkdownIt {
  const md = markdownIt("default", {
    html: false,
    xhtmlOut: true,
    linkify: true,
    typographer: false,
    maxNesting: MAX_NESTING,
  });
  md.validateLink = allowedLink;
  // linkify-it finds `www.` links only in fuzzy mode; bare domains are dropped again below
  md.linkify.set({ fuzzyLink: true });
  md.core.ruler.after("linkify", "gfm_autolinks_only", gfmAutolinksOnly);
  md.core.ruler.push("task_lists", taskLists);
  md.core.ruler.push("references", references);

  const rules = md.renderer.rules;
  const escape = md.utils.escapeHtml;
  rules.heading_open = (tokens, i) => `<h${demoted(tokens[i].tag)}>`;
  rules.heading_close = (tokens, i) => `</h${demoted(tokens[i].tag)}>\n`;
  rules.link_open = (tokens, i, options, _env, self) => {
    tokens[i].attrSet("rel", REL);
    return self.renderToken(tokens, i, options);
  };
  // a column's alignment as a class: the page's Content-Security-Policy allows no inline styles
  rules.th_open = rules.td_open = (tokens, i, options, _env, self) => {
    const align = /text-align:(left|center|right)/.exec(String(tokens[i].attrGet("style") ?? ""))?.[1];
    if (tokens[i].attrs) tokens[i].attrs = tokens[i].attrs!.filter(([name]) => name !== "style");
    if (align) tokens[i].attrSet("class", `align-${align}`);
    return self.renderToken(tokens, i, options);
  };
  rules.table_open = () => '<div class="md-table"><table>\n';
  rules.table_close = () => "</table></div>\n";
  rules.image = (tokens, i, _options, env) => {
    const token = tokens[i];
    const src = String(token.attrGet("src") ?? "");
    const alt = token.content;
    const id = ATTACHMENT_PATH.exec(src)?.[1]?.toLowerCase();
    const image = id ? resolvedOf(env)?.images.get(id) : undefined;
    if (image)
      return `<a class="md-image" href="${escape(image.href)}"><img src="${escape(image.src)}" alt="${escape(alt || image.alt)}" loading="lazy"></a>`;
    if (/^https?:\/\//i.test(src)) return `<a href="${escape(src)}" rel="${REL}">${escape(alt || src)}</a>`;
    return escape(alt);
  };
  // the box is named for people using a screen reader (it has no label of its own)
  rules.task_box = (tokens, i) =>
    tokens[i].meta?.checked
      ? '<input type="checkbox" class="task-list-box" disabled checked aria-label="Done"> '
      : '<input type="checkbox" class="task-list-box" disabled aria-label="Not done"> ';
  rules.task_ref = (tokens, i, _options, env) => {
    const { key, text } = tokens[i].meta as { key: string; text: string };
    const task = resolvedOf(env)?.tasks.get(key);
    return task
      ? `<a class="task-ref-link" href="${escape(task.href)}" title="${escape(task.title)}">${escape(text)}</a>`
      : escape(text);
  };
  rules.mention = (tokens, i, _options, env) => {
    const { username, text } = tokens[i].meta as { username: string; text: string };
    const person = resolvedOf(env)?.people.get(username);
    if (!person) return escape(text);
    const name = `@${escape(person.name)}`;
    return person.href
      ? `<a class="mention" href="${escape(person.href)}">${name}</a>`
      : `<span class="mention">${name}</span>`;
  };
  return md;
}

/** What our rules keep in markdown-it's env (whose own `references` are link definitions). */
interface RenderEnv {
  [key: string | symbol]: unknown;
  found?: TextReferences;
  resolved?: ResolvedReferences;
}

function resolvedOf(env: unknown): ResolvedReferences | undefined {
  return (env as RenderEnv | undefined)?.resolved;
}

function demoted(tag: string): number {
  return Math.min(6, Number(tag.slice(1)) + 3);
}

/**
 * linkify-it also links bare domains (`example.com`); GitHub links only
 * `www.`, `http(s)://` and email addresses. Other matches go back to text.
 */
function gfmAutolinksOnly(state: StateCore): void {
  for (const block of state.tokens) {
    if (block.type !== "inline" || !block.children) continue;
    const children = block.children;
    for (let i = 0; i < children.length; i++) {
      const open = children[i];
      if (open.type !== "link_open" || open.markup !== "linkify") continue;
      const text = children[i + 1]?.content ?? "";
      if (/^(https?:\/\/|www\.)/i.test(text) || (text.includes("@") && !text.includes("/"))) continue;
      const plain = new state.Token("text", "", 0);
      plain.content = text;
      children.splice(i, 3, plain);
    }
  }
}

/** `[ ]` / `[x]` at the start of a list item's first paragraph: a disabled box (GitHub's task list). */
function taskLists(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i];
    if (inline.type !== "inline" || tokens[i - 1].type !== "paragraph_open" || tokens[i - 2].type !== "list_item_open")
      continue;
    const first = inline.children?.[0];
    const m = first?.type === "text" ? /^\[([ xX])\][ \t]+/.exec(first.content) : null;
    if (!first || !m) continue;
    first.content = first.content.slice(m[0].length);
    const box = new state.Token("task_box", "input", 0);
    box.meta = { checked: m[1] !== " " };
    inline.children!.unshift(box);
    tokens[i - 2].attrJoin("class", "task-list-item");
  }
}

const REFERENCE = /(?<![\w@./-])@([A-Za-z0-9_]{3,30})(?![\w@-])|(?<![\w-])([A-Z]{2,10})-([1-9]\d{0,8})(?![\w-])/g;

/** `@username` and `KEY-12` in text (never inside links or code): tokens of their own, listed for resolving. */
function references(state: StateCore): void {
  const env = state.env as RenderEnv;
  const found = (env.found ??= { tasks: new Set(), people: new Set(), attachments: new Set() });
  for (const block of state.tokens) {
    if (block.type !== "inline" || !block.children) continue;
    let linkDepth = 0;
    const out: Token[] = [];
    for (const child of block.children) {
      if (child.type === "link_open") linkDepth++;
      if (child.type === "link_close") linkDepth--;
      if (child.type === "image") {
        const id = ATTACHMENT_PATH.exec(String(child.attrGet("src") ?? ""))?.[1];
        if (id) found.attachments.add(id.toLowerCase());
      }
      if (child.type !== "text" || linkDepth > 0) {
        out.push(child);
        continue;
      }
      let last = 0;
      for (const m of child.content.matchAll(REFERENCE)) {
        const at = m.index;
        if (at > last) out.push(textToken(state, child.content.slice(last, at)));
        const ref = new state.Token(m[1] ? "mention" : "task_ref", "", 0);
        if (m[1]) {
          ref.meta = { username: m[1].toLowerCase(), text: m[0] };
          found.people.add(m[1].toLowerCase());
        } else {
          const key = `${m[2]}-${Number(m[3])}`;
          ref.meta = { key, text: m[0] };
          found.tasks.add(key);
        }
        out.push(ref);
        last = at + m[0].length;
      }
      if (last === 0) out.push(child);
      else if (last < child.content.length) out.push(textToken(state, child.content.slice(last)));
    }
    block.children = out;
  }
}

function textToken(state: StateCore, content: string): Token {
  const token = new state.Token("text", "", 0);
  token.content = content;
  return token;
}

const md = createMarkdown();

export function parseMarkdown(source: string): ParsedText {
  const env: RenderEnv = {};
  const tokens = md.parse(source, env);
  return { tokens, references: env.found ?? { tasks: new Set(), people: new Set(), attachments: new Set() } };
}

export function renderMarkdown(parsed: ParsedText, resolved: ResolvedReferences = NO_REFERENCES): string {
  const env: RenderEnv = { resolved };
  return md.renderer.render(parsed.tokens, md.options, env);
}

/** Parse and print in one step, for a text with nothing to resolve (or resolved already). */
export function markdownToHtml(source: string, resolved: ResolvedReferences = NO_REFERENCES): string {
  return renderMarkdown(parseMarkdown(source), resolved);
}
