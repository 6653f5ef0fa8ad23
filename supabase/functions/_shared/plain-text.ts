// A Markdown text as one line of plain words, for excerpts: the notification
// page's quote of a comment and the notification emails' (issue 42 §11). It
// reads markdown-it's tokens (the app's parser, app/lib/markdown.server.ts,
// or a plain markdown-it in the send-notifications function), so it imports
// nothing and both sides share it: a picture is its name, a link its text, a
// table its cells, a task-list box ☐ / ☑, code its text, and `@username` the
// person's name when `nameOf` knows it (the text as written otherwise).

/** What is read of a markdown-it token (the app's own tokens `mention`, `task_ref`, `task_box` included). */
export interface TokenLike {
  type: string;
  content: string;
  children?: TokenLike[] | null;
  meta?: unknown;
}

/** `@username` as the app finds it in text (app/lib/markdown.server.ts's REFERENCE). */
const MENTION = /(?<![\w@./-])@([A-Za-z0-9_]{3,30})(?![\w@-])/g;
const TASK_BOX = /^\[([ xX])\][ \t]+/;

export function plainText(tokens: TokenLike[], nameOf: (username: string) => string | undefined = () => undefined) {
  const parts: string[] = [];
  let itemStart = false;
  for (const token of tokens) {
    if (token.type === "list_item_open") itemStart = true;
    else if (token.type === "inline") {
      parts.push(inline(token.children ?? [], itemStart, nameOf));
      itemStart = false;
    } else if (token.type === "code_block" || token.type === "fence") parts.push(token.content);
  }
  return parts.join(" ").replace(/\s+/g, " ").trim();
}

function inline(children: TokenLike[], itemStart: boolean, nameOf: (username: string) => string | undefined) {
  let out = "";
  children.forEach((child, i) => {
    const meta = (child.meta ?? {}) as { username?: string; text?: string; checked?: boolean };
    switch (child.type) {
      case "text": {
        let text = child.content;
        if (i === 0 && itemStart) text = text.replace(TASK_BOX, (_, mark: string) => (mark === " " ? "☐ " : "☑ "));
        out += text.replace(MENTION, (whole, username: string) => {
          const name = nameOf(username.toLowerCase());
          return name ? `@${name}` : whole;
        });
        break;
      }
      case "code_inline":
      case "image": // its content is its alt text
        out += child.content;
        break;
      case "softbreak":
      case "hardbreak":
        out += " ";
        break;
      case "mention": {
        const name = meta.username ? nameOf(meta.username) : undefined;
        out += name ? `@${name}` : (meta.text ?? "");
        break;
      }
      case "task_ref":
        out += meta.text ?? "";
        break;
      case "task_box":
        out += meta.checked ? "☑ " : "☐ ";
        break;
    }
  });
  return out;
}

/** The first `max` characters of a plain text, with "…" when it was longer. */
export function excerpt(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}
