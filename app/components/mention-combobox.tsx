import { useEffect, useId, useRef, useState } from "react";
import { mentionAt, type Mentionable } from "~/lib/mentions";

/**
 * The @mention combobox itself, loaded by mentions.tsx's MentionCombobox the
 * first time its text area gets focus (so a page that is only read never
 * fetches it).
 */
const SHOWN = 8;

function matches(members: readonly Mentionable[], query: string): Mentionable[] {
  const q = query.toLowerCase();
  return members
    .filter(
      (m) =>
        m.username.toLowerCase().startsWith(q) ||
        m.name
          .toLowerCase()
          .split(/\s+/)
          .some((word) => word.startsWith(q)),
    )
    .slice(0, SHOWN);
}

/**
 * With JavaScript, typing `@` in its form's text area `field` offers the team's
 * members (docs/product.md §10): a listbox under it, the text area pointing at the
 * active option (aria-activedescendant) as the ARIA combobox pattern does;
 * ↓/↑ move, Enter or Tab picks, Escape closes, a click picks. Picking writes
 * `@username ` in place of what was typed. Without JavaScript nothing
 * renders, and `@username` typed by hand mentions just the same.
 */
export function MentionComboboxList({ field, members }: { field: string; members: readonly Mentionable[] }) {
  const listId = useId();
  const anchor = useRef<HTMLDivElement>(null);
  const textArea = () =>
    anchor.current?.closest("form")?.querySelector<HTMLTextAreaElement>(`textarea[name="${field}"]`) ?? null;
  const [open, setOpen] = useState<{ start: number; options: Mentionable[] } | null>(null);
  const [active, setActive] = useState(0);
  const state = useRef({ open, active, members });
  state.current = { open, active, members };

  useEffect(() => {
    const area = textArea();
    if (!area) return;
    area.setAttribute("aria-autocomplete", "list");
    const update = () => {
      const at = mentionAt(area.value, area.selectionStart ?? area.value.length);
      const options = at ? matches(state.current.members, at.query) : [];
      if (!at || options.length === 0) {
        setOpen(null);
        return;
      }
      setOpen({ start: at.start, options });
      setActive((i) => Math.min(i, options.length - 1));
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const { open: current, active: index } = state.current;
      if (!current) return;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setActive((index + step + current.options.length) % current.options.length);
      } else if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        pick(area, current.start, current.options[index]);
        setOpen(null);
      } else if (event.key === "Escape") {
        event.preventDefault();
        setOpen(null);
      }
    };
    const close = () => setTimeout(() => setOpen(null), 150);
    area.addEventListener("input", update);
    area.addEventListener("keydown", onKeyDown);
    area.addEventListener("blur", close);
    // what was typed while this code was on its way
    if (document.activeElement === area) update();
    return () => {
      area.removeEventListener("input", update);
      area.removeEventListener("keydown", onKeyDown);
      area.removeEventListener("blur", close);
      area.removeAttribute("aria-autocomplete");
      area.removeAttribute("aria-controls");
      area.removeAttribute("aria-activedescendant");
    };
    // the text area is found from this component's place in the form, once mounted
  }, [field]);

  // the text area names the list and its active option while the list is open
  useEffect(() => {
    const area = textArea();
    if (!area) return;
    if (open) {
      area.setAttribute("aria-controls", listId);
      area.setAttribute("aria-activedescendant", `${listId}-${active}`);
    } else {
      area.removeAttribute("aria-controls");
      area.removeAttribute("aria-activedescendant");
    }
  }, [open, active, listId, field]);

  return (
    <div ref={anchor} className="mention-combobox">
      {open ? (
        <ul id={listId} role="listbox" aria-label="People to mention" className="mention-options">
          {open.options.map((m, i) => (
            <li
              key={m.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? "active" : undefined}
              onMouseDown={(event) => {
                event.preventDefault();
                const area = textArea();
                if (area) pick(area, open.start, m);
                setOpen(null);
              }}
            >
              {m.name} <span className="muted">@{m.username}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <span className="visually-hidden" aria-live="polite">
        {open ? `${open.options.length} ${open.options.length === 1 ? "person" : "people"} to mention` : ""}
      </span>
    </div>
  );
}

/** Replaces the `@…` being typed with `@username `, as if typed (React and the form hear an input event). */
function pick(area: HTMLTextAreaElement, start: number, person: Mentionable) {
  const caret = area.selectionStart ?? area.value.length;
  const insert = `@${person.username} `;
  const value = area.value.slice(0, start) + insert + area.value.slice(caret);
  const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set;
  setter?.call(area, value);
  area.setSelectionRange(start + insert.length, start + insert.length);
  area.dispatchEvent(new Event("input", { bubbles: true }));
  area.focus();
}
