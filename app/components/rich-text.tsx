/**
 * A description or comment as the server rendered it (app/lib/markdown.server.ts:
 * Markdown to HTML with raw HTML escaped, only safe links and this project's
 * pictures), so it is put in the page as it is.
 */
export function RichText({ html, className }: { html: string; className?: string }) {
  return (
    <div className={className ? `rich-text ${className}` : "rich-text"} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
