import { useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties } from "react";
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
  const [open, setOpen] = useState<{ start: number; options: Mentionable[]; caret: CaretPoint } | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const [place, setPlace] = useState<CSSProperties | null>(null);
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
      setOpen({ start: at.start, options, caret: caretPoint(area, at.start) });
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
    // the page or the panel scrolled: the list follows the caret
    const follow = () => {
      if (state.current.open) update();
    };
    window.addEventListener("scroll", follow, true);
    window.addEventListener("resize", follow);
    area.addEventListener("input", update);
    area.addEventListener("keydown", onKeyDown);
    area.addEventListener("blur", close);
    // what was typed while this code was on its way
    if (document.activeElement === area) update();
    return () => {
      window.removeEventListener("scroll", follow, true);
      window.removeEventListener("resize", follow);
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

  // at the caret, below its line, or above it when the screen ends first; never off either side
  useLayoutEffect(() => {
    const box = list.current;
    if (!open || !box) return setPlace(null);
    const { x, y, line } = open.caret;
    const { width, height } = box.getBoundingClientRect();
    const below = y + line + 4;
    const top = below + height <= window.innerHeight - 8 ? below : Math.max(8, y - height - 4);
    const left = Math.max(8, Math.min(x, window.innerWidth - width - 8));
    setPlace({ top, left });
  }, [open]);

  return (
    <div ref={anchor} className="mention-combobox">
      {open ? (
        <ul
          ref={list}
          id={listId}
          role="listbox"
          aria-label="People to mention"
          className="mention-options"
          style={place ?? { visibility: "hidden" }}
        >
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

interface CaretPoint {
  /** the caret's place on the screen (viewport pixels) and its line's height */
  x: number;
  y: number;
  line: number;
}

/**
 * Where the character at `index` of a text area is drawn: a hidden copy of
 * the text area (same box, font and wrapping) holds the text before it, and
 * a marker after it says where it ended up.
 */
function caretPoint(area: HTMLTextAreaElement, index: number): CaretPoint {
  const style = getComputedStyle(area);
  const mirror = document.createElement("div");
  for (const name of MIRRORED) mirror.style.setProperty(name, style.getPropertyValue(name));
  Object.assign(mirror.style, {
    position: "absolute",
    top: "0",
    left: "-9999px",
    visibility: "hidden",
    whiteSpace: "pre-wrap",
    overflowWrap: "break-word",
    overflow: "hidden",
  });
  mirror.textContent = area.value.slice(0, index);
  const marker = document.createElement("span");
  marker.textContent = area.value.slice(index) || ".";
  mirror.append(marker);
  document.body.append(mirror);
  const box = area.getBoundingClientRect();
  const point = {
    x: box.left + marker.offsetLeft - area.scrollLeft,
    y: box.top + marker.offsetTop - area.scrollTop,
    line: parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.25,
  };
  mirror.remove();
  return point;
}

const MIRRORED = [
  "box-sizing",
  "width",
  "border-top-width",
  "border-right-width",
  "border-bottom-width",
  "border-left-width",
  "padding-top",
  "padding-right",
  "padding-bottom",
  "padding-left",
  "font-family",
  "font-size",
  "font-style",
  "font-weight",
  "line-height",
  "letter-spacing",
  "word-spacing",
  "text-indent",
  "text-transform",
  "tab-size",
];

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
