import { useEffect, useRef, useState, type ComponentType } from "react";
import type { Mentionable, Segment } from "~/lib/mentions";

/**
 * Text (never HTML) with each @mention of a team member shown as the
 * person's name: the pieces lib/mentions.ts's mentionSegments() made on the server.
 */
export function MentionText({ segments }: { segments: readonly Segment[] }) {
  return (
    <>
      {segments.map((segment, i) =>
        "person" in segment ? (
          <span key={i} className="mention" title={`@${segment.person.username}`}>
            @{segment.person.name}
          </span>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}

type ComboboxProps = { field: string; members: readonly Mentionable[] };

/**
 * With JavaScript, typing `@` in its form's text area `field` offers the
 * team's members (PRODUCT.md §10; mention-combobox.tsx). Its code arrives the
 * first time the text area gets focus, as a form's schemas do. Without
 * JavaScript nothing renders, and `@username` typed by hand mentions just the same.
 */
export function MentionCombobox(props: ComboboxProps) {
  const anchor = useRef<HTMLDivElement>(null);
  const [List, setList] = useState<ComponentType<ComboboxProps> | null>(null);
  const { field } = props;
  useEffect(() => {
    const area = anchor.current?.closest("form")?.querySelector<HTMLTextAreaElement>(`textarea[name="${field}"]`);
    if (!area) return;
    const load = () =>
      void import("./mention-combobox").then((m) =>
        setList(() => m.MentionComboboxList as ComponentType<ComboboxProps>),
      );
    if (document.activeElement === area) load();
    area.addEventListener("focus", load, { once: true });
    return () => area.removeEventListener("focus", load);
  }, [field]);
  return <div ref={anchor}>{List ? <List {...props} /> : null}</div>;
}
