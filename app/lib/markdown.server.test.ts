import { createRequire } from "node:module";
import markdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { allowedLink, markdownToHtml, parseMarkdown, renderMarkdown, type ResolvedReferences } from "./markdown.server";

interface SpecExample {
  markdown: string;
  html: string;
  section: string;
  number: number;
}
// the CommonMark spec's own examples (0.31.2, the version markdown-it 15 claims), from the commonmark-spec package
const spec = createRequire(import.meta.url)("commonmark-spec") as { tests: SpecExample[] };
const examples = spec.tests.map((t) => ({
  ...t,
  markdown: t.markdown.replace(/→/g, "\t"),
  html: t.html.replace(/→/g, "\t"),
}));
// the spec's runner compares HTML with insignificant whitespace between tags dropped
const normalise = (html: string) => html.replace(/\n+/g, "\n").replace(/>\s+</g, "><").trim();

describe("CommonMark spec examples", () => {
  it("markdown-it, the parser the renderer is built on, passes all 652 examples of spec 0.31.2", () => {
    const commonmark = markdownIt("commonmark");
    const failed = examples.filter((t) => normalise(commonmark.render(t.markdown)) !== normalise(t.html));
    expect(examples).toHaveLength(652);
    expect(failed.map((t) => t.number)).toEqual([]);
  });

  it("our renderer gives the spec's HTML for every example our rules leave alone, changed only as documented", () => {
    // documented changes: headings start at h4, links carry rel, a line break is kept (<br />); raw HTML, images, GFM syntax and
    // links our rules refuse change the output on purpose (the hostile-input table below covers them)
    const untouched = examples.filter(
      (t) =>
        !/[<|~]|https?:|www\.|@|\[[ xX]\]/.test(t.markdown) &&
        !/<img|<[a-z]+[^>]*\s(?:src|href)="(?![^"]*)"/.test(t.html) &&
        [...t.html.matchAll(/<a href="([^"]*)"/g)].every((m) => allowedLink(m[1])),
    );
    const expected = (html: string) =>
      html
        .replace(/<(\/?)h([1-6])>/g, (_, slash: string, n: string) => `<${slash}h${Math.min(6, Number(n) + 3)}>`)
        .replace(/<a (href="[^"]*"[^>]*)>/g, '<a $1 rel="noopener noreferrer nofollow">');
    const ours = (markdown: string) => markdownToHtml(markdown).replace(/<br \/>\n/g, "\n");
    const failed = untouched.filter(
      (t) => normalise(ours(t.markdown)) !== normalise(expected(t.html).replace(/<br \/>\n/g, "\n")),
    );
    expect(untouched.length).toBeGreaterThan(450);
    expect(failed.map((t) => `${t.number} ${t.section}`)).toEqual([]);
  });
});

/** Every tag and attribute the renderer may print; a link or image only where allowedLink says. */
const TAGS = new Set(
  "p h4 h5 h6 em strong s code pre blockquote ul ol li a img input table thead tbody tr th td div br hr span".split(
    " ",
  ),
);
const ATTRIBUTES = new Set([
  "aria-label",
  "href",
  "rel",
  "class",
  "src",
  "alt",
  "loading",
  "title",
  "type",
  "disabled",
  "checked",
  "start",
]);

function expectSafe(html: string) {
  for (const m of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)) {
    expect(TAGS, m[0]).toContain(m[1].toLowerCase());
    for (const a of m[2].matchAll(/([a-zA-Z-]+)(?:="([^"]*)")?/g)) {
      expect(ATTRIBUTES, `${a[1]} in ${m[0]}`).toContain(a[1].toLowerCase());
      if (a[1] === "href" || a[1] === "src") expect(allowedLink(a[2].replace(/&amp;/g, "&")), m[0]).toBe(true);
      expect(a[2] ?? "", m[0]).not.toMatch(/javascript:|vbscript:|data:/i);
    }
  }
}

describe("hostile input: shown as text, never run", () => {
  const table: Array<[string, string, string]> = [
    ["raw script", "<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"],
    ["img onerror", '<img src=x onerror="alert(1)">', "<p>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</p>\n"],
    [
      "inline svg",
      "<svg><script>alert(1)</script></svg>",
      "<p>&lt;svg&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;/svg&gt;</p>\n",
    ],
    ["javascript link", "[x](javascript:alert(1))", "<p>[x](javascript:alert(1))</p>\n"],
    ["JaVaScRiPt link", "[x](JaVaScRiPt:alert(1))", "<p>[x](JaVaScRiPt:alert(1))</p>\n"],
    ["entity-encoded scheme", "[x](&#106;avascript:alert(1))", "<p>[x](javascript:alert(1))</p>\n"],
    ["percent-encoded scheme", "[x](%6Aavascript:alert(1))", "<p>[x](%6Aavascript:alert(1))</p>\n"],
    ["tab inside the scheme", "[x](java\tscript:alert(1))", "<p>[x](java\tscript:alert(1))</p>\n"],
    ["autolink javascript", "<javascript:alert(1)>", "<p>&lt;javascript:alert(1)&gt;</p>\n"],
    ["reference javascript", "[x]\n\n[x]: javascript:alert(1)", "<p>[x]</p>\n<p>[x]: javascript:alert(1)</p>\n"],
    ["data: link", "[x](data:text/html;base64,PHNjcmlwdD4=)", "<p>[x](data:text/html;base64,PHNjcmlwdD4=)</p>\n"],
    ["data: image", "![x](data:image/png;base64,AAAA)", "<p>![x](data:image/png;base64,AAAA)</p>\n"],
    ["vbscript", "[x](vbscript:msgbox)", "<p>[x](vbscript:msgbox)</p>\n"],
    ["file:", "[x](file:///etc/passwd)", "<p>[x](file:///etc/passwd)</p>\n"],
    ["protocol-relative", "[x](//evil.example/)", "<p>[x](//evil.example/)</p>\n"],
    [
      "backslash host (a path of this site)",
      "[x](/\\evil.example/)",
      '<p><a href="/%5Cevil.example/" rel="noopener noreferrer nofollow">x</a></p>\n',
    ],
    [
      "quote breaking out of href",
      '[x](https://a.b/"onmouseover="alert(1))',
      '<p><a href="https://a.b/%22onmouseover=%22alert(1)" rel="noopener noreferrer nofollow">x</a></p>\n',
    ],
    [
      "title attribute injection",
      '[x](https://a.b "t\\" onclick=\\"alert(1)")',
      '<p><a href="https://a.b" title="t&quot; onclick=&quot;alert(1)" rel="noopener noreferrer nofollow">x</a></p>\n',
    ],
    [
      "external image becomes a link",
      "![cat](https://img.example/cat.png)",
      '<p><a href="https://img.example/cat.png" rel="noopener noreferrer nofollow">cat</a></p>\n',
    ],
    [
      "unknown attachment stays its alt text",
      "![shot](/attachments/00000000-0000-4000-8000-000000000000)",
      "<p>shot</p>\n",
    ],
    ["html in a code span", "`<b onclick=x>`", "<p><code>&lt;b onclick=x&gt;</code></p>\n"],
    [
      "code fence info string",
      '```js" onload="x\ncode\n```',
      '<pre><code class="language-js&quot;">code\n</code></pre>\n',
    ],
    ["heading demoted", "# One\n###### Six", "<h4>One</h4>\n<h6>Six</h6>\n"],
    [
      "table alignment without inline style",
      "| a |\n|--:|\n| 1 |",
      '<div class="md-table"><table>\n<thead>\n<tr>\n<th class="align-right">a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td class="align-right">1</td>\n</tr>\n</tbody>\n</table></div>\n',
    ],
    [
      "task list is read-only",
      "- [x] done\n- [ ] open",
      '<ul>\n<li class="task-list-item"><input type="checkbox" class="task-list-box" disabled checked aria-label="Done"> done</li>\n<li class="task-list-item"><input type="checkbox" class="task-list-box" disabled aria-label="Not done"> open</li>\n</ul>\n',
    ],
    [
      "bare domain is text, www. and https link",
      "example.com www.example.com https://x.y",
      '<p>example.com <a href="http://www.example.com" rel="noopener noreferrer nofollow">www.example.com</a> <a href="https://x.y" rel="noopener noreferrer nofollow">https://x.y</a></p>\n',
    ],
    ["strikethrough", "~~old~~", "<p><s>old</s></p>\n"],
  ];
  for (const [name, input, output] of table) {
    it(name, () => {
      const html = markdownToHtml(input);
      expect(html).toBe(output);
      expectSafe(html);
    });
  }

  it("thousands of links, a 10,000-character line, quotes 10,000 deep and lists 5,000 deep (as deep as 10,000 characters go) render, bounded", () => {
    const cases = [
      Array.from({ length: 2000 }, (_, i) => `[l${i}](https://x.y/${i})`).join(" "),
      "a".repeat(10_000),
      "`".repeat(5000) + "x",
      "- ".repeat(5000) + "deep",
      "> ".repeat(5000) + "deep",
      ">".repeat(10_000),
      "[".repeat(5000) + "x" + "](y)".repeat(5000),
      "*a **".repeat(1500),
      "![".repeat(3000) + "x",
      "<".repeat(10_000),
    ];
    for (const input of cases) {
      const html = markdownToHtml(input);
      expectSafe(html);
      expect((html.match(/<(ul|blockquote)>/g) ?? []).length).toBeLessThanOrEqual(20);
    }
    expect(markdownToHtml(cases[0]).match(/<a /g)).toHaveLength(2000);
  });
});

describe("references", () => {
  const resolved: ResolvedReferences = {
    tasks: new Map([["WEB-12", { href: "/teams/acme/projects/WEB/tasks/12", title: "Fix <the> footer" }]]),
    people: new Map([["mia", { name: "Mia Member", href: null }]]),
    images: new Map([
      [
        "0b8c7a1e-1111-4222-8333-444455556666",
        {
          src: "https://storage/render?token=a&b=1",
          href: "/attachments/0b8c7a1e-1111-4222-8333-444455556666",
          alt: "shot.png",
        },
      ],
    ]),
  };

  it("lists what a text refers to, outside code and links", () => {
    const parsed = parseMarkdown(
      "WEB-12, OPS-3 and @Mia; `WEB-99 @code` [WEB-7](https://x.y) mail@mia.example ![s](/attachments/0B8C7A1E-1111-4222-8333-444455556666)",
    );
    expect([...parsed.references.tasks]).toEqual(["WEB-12", "OPS-3"]);
    expect([...parsed.references.people]).toEqual(["mia"]);
    expect([...parsed.references.attachments]).toEqual(["0b8c7a1e-1111-4222-8333-444455556666"]);
  });

  it("links what the reader may see and leaves the rest exactly as written", () => {
    const html = renderMarkdown(
      parseMarkdown("WEB-12 WEB-13 @mia @ghost ![shot](/attachments/0b8c7a1e-1111-4222-8333-444455556666)"),
      resolved,
    );
    expect(html).toBe(
      '<p><a class="task-ref-link" href="/teams/acme/projects/WEB/tasks/12" title="Fix &lt;the&gt; footer">WEB-12</a> WEB-13 ' +
        '<span class="mention">@Mia Member</span> @ghost ' +
        '<a class="md-image" href="/attachments/0b8c7a1e-1111-4222-8333-444455556666"><img src="https://storage/render?token=a&amp;b=1" alt="shot" loading="lazy"></a></p>\n',
    );
    expectSafe(html);
  });
});
