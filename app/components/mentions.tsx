import { useEffect, useRef, useState, type ComponentType } from "react";
import type { Mentionable } from "~/lib/mentions";

type ComboboxProps = { field: string; members: readonly Mentionable[] };

/**
 * With JavaScript, typing `@` in its form's text area `field` offers the
 * team's members (docs/product.md §10; mention-combobox.tsx). Its code arrives the
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
