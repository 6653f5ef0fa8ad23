import { useEffect, useRef, useState, type KeyboardEvent } from "react";

/** What `?` lists (docs/product.md §13); the keys are handled by lib/shortcuts.ts. */
const SHORTCUTS = [
  { keys: "?", does: "Show these shortcuts" },
  { keys: "/", does: "Search tasks" },
  { keys: "c", does: "New task" },
  { keys: "g b", does: "Go to the board" },
  { keys: "g l", does: "Go to the list" },
  { keys: "g c", does: "Go to the calendar" },
  { keys: "j", does: "Next card or row" },
  { keys: "k", does: "Previous card or row" },
  { keys: "Enter", does: "Open the card or row" },
  { keys: "Escape", does: "Close the task panel" },
] as const;

/** Shortcuts that act through a control of the page (the rest work wherever there are cards or rows). */
const CONTROLLED = new Set(["/", "c", "g b", "g l", "g c", "Escape"]);

/**
 * The `?` dialog: a modal <dialog> (the rest of the page inert), focus kept
 * inside it (Tab wraps), closed by Escape or its button, and focus back where
 * it was. Loaded the first time it opens, so pages don't carry it.
 */
export default function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  // which shortcuts this page offers, read once when the dialog opens
  const [offered] = useState(() => new Set(SHORTCUTS.map((s) => s.keys).filter(isOffered)));

  useEffect(() => {
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.current?.showModal();
    return () => returnTo?.focus();
  }, []);

  function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== "Tab" || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>("button, [href], [tabindex]")];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (event.shiftKey ? document.activeElement === first : document.activeElement === last) {
      event.preventDefault();
      (event.shiftKey ? last : first).focus();
    }
  }

  return (
    <dialog
      ref={dialog}
      className="shortcuts-dialog"
      aria-labelledby="shortcuts-title"
      onClose={onClose}
      onKeyDown={keepFocusInside}
    >
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <p className="muted">They work whenever no field has focus.</p>
      <table className="shortcuts-table">
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">What they do</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map(({ keys, does }) => (
            <tr key={keys} className={offered.has(keys) ? undefined : "muted"}>
              <td>
                {keys.split(" ").map((key, i) => (
                  <span key={key}>
                    {i > 0 ? " then " : null}
                    <kbd>{key}</kbd>
                  </span>
                ))}
              </td>
              <td>
                {does}
                {offered.has(keys) ? null : " (not on this page)"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="dialog">
        <button type="submit" className="button" autoFocus>
          Close
        </button>
      </form>
    </dialog>
  );
}

function isOffered(keys: string): boolean {
  if (CONTROLLED.has(keys)) return document.querySelector(`[data-shortcut="${keys}"]`) !== null;
  if (keys === "j" || keys === "k" || keys === "Enter") return document.querySelector("[data-nav-item]") !== null;
  return true;
}
