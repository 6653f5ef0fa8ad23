import { createContext } from "react";

/**
 * The keyboard shortcuts (docs/product.md §13), with JavaScript; the list
 * the `?` dialog shows is components/shortcuts-dialog.tsx. Each shortcut
 * acts through a control the page shows anyway: the element carrying
 * `data-shortcut="<keys>"` (the "New task" link, a view's tab, the header's
 * search box, the task panel's close link) is clicked or focused. So a
 * shortcut does nothing on a page without its control, and what it does can
 * always be done without it. `j` / `k` move focus through the elements
 * marked `data-nav-item` (the board's cards, the list's rows); Enter then
 * opens the focused one, as the browser does for any link. This module is
 * on every page: it stays small, and the dialog loads when first opened.
 */

/** Opens the `?` dialog (root.tsx provides it; the visible "Keyboard shortcuts" buttons use it). */
export const ShortcutsHelp = createContext<() => void>(() => {});

/** How long the second key of "g b" may take. */
const SEQUENCE_MS = 1500;
let sequenceStart = 0;

/** Handles one key press on the page; `openHelp` shows the `?` dialog. */
export function handleShortcut(event: KeyboardEvent, openHelp: () => void) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isInField(event.target)) return;
  const key = event.key;
  const second = Date.now() - sequenceStart < SEQUENCE_MS;
  sequenceStart = 0;
  let done = false;
  if (second) done = act(`g ${key}`);
  else if (key === "g") sequenceStart = Date.now();
  else if (key === "?") {
    openHelp();
    done = true;
  } else if (key === "j" || key === "k") done = moveFocus(key === "j" ? 1 : -1);
  else if (key === "/" || key === "c" || key === "Escape") done = act(key);
  if (done) event.preventDefault();
}

/** Typing: focus in a form field or editable text, or in a dialog (which has keys of its own). */
function isInField(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || !!target.closest("input, textarea, select, dialog[open]"))
  );
}

/** Clicks the shortcut's control, or focuses it when it is a field (search), opening the fold that hides it. */
function act(keys: string): boolean {
  const control = document.querySelector<HTMLElement>(`[data-shortcut="${keys}"]`);
  if (!control) return false;
  if (control.matches("input")) {
    // a folded header menu (phones): its <details> sits just before the content
    const fold = control.closest(".fold-content")?.previousElementSibling;
    if (fold instanceof HTMLDetailsElement) fold.open = true;
    control.focus();
  } else control.click();
  return true;
}

/** Focus to the next (1) or previous (-1) card or row, from the focused one or from the start. */
function moveFocus(step: 1 | -1): boolean {
  const items = [...document.querySelectorAll<HTMLElement>("[data-nav-item]")].filter((item) => item.offsetParent);
  if (items.length === 0) return false;
  const at = items.findIndex((item) => item === document.activeElement || item.contains(document.activeElement));
  const next = at === -1 ? (step === 1 ? 0 : items.length - 1) : Math.min(Math.max(at + step, 0), items.length - 1);
  items[next].focus();
  items[next].scrollIntoView({ block: "nearest" });
  return true;
}
