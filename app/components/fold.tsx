import { useLocation } from "@remix-run/react";
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from "react";

/**
 * Navigation that folds behind a button on narrow screens and is simply there
 * on wide ones (app.css, "Folds"). The button is a <details> of its own and
 * the content its next sibling, shown by CSS while the details is open: it
 * opens and closes without JavaScript, and the content is never inside a
 * closed <details> (browsers hide that from screen readers even when CSS
 * shows it). With JavaScript the fold also closes after navigating (the
 * layout around it stays mounted), on Escape (focus back on its button) and
 * on a tap or click outside it, once that tap has done what it does: the open
 * fold takes room in the page, so closing it at pointerdown would move the
 * page under the finger and the tap would land on something else.
 */
export function Fold({
  summary,
  className,
  children,
}: {
  summary: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  useEffect(() => {
    if (toggle.current) toggle.current.open = false;
  }, [location.key]);

  useEffect(() => {
    function onClickOutside(event: MouseEvent) {
      if (toggle.current?.open && event.target instanceof Node && !root.current?.contains(event.target))
        toggle.current.open = false;
    }
    document.addEventListener("click", onClickOutside);
    return () => document.removeEventListener("click", onClickOutside);
  }, []);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const details = toggle.current;
    if (event.key !== "Escape" || !details?.open) return;
    event.preventDefault(); // Escape did this: not also a shortcut (lib/shortcuts.ts)
    details.open = false;
    details.querySelector("summary")?.focus();
  }

  return (
    // Escape is heard from anywhere inside the open menu; the wrapper itself isn't interactive.
    <div ref={root} className={`fold${className ? ` ${className}` : ""}`} onKeyDown={onKeyDown}>
      <details ref={toggle} className="fold-toggle">
        <summary className="fold-summary">{summary}</summary>
      </details>
      <div className="fold-content">{children}</div>
    </div>
  );
}

/**
 * The usual button face of a Fold: what it holds (`title`), where you are in
 * it (`place`, shown beside the title when there is one), and an optional
 * word before the chevron that turns while the fold is open.
 */
export function FoldLabel({ title, place, action }: { title: ReactNode; place?: ReactNode; action?: string }) {
  return (
    <>
      <span className="fold-summary-title">{title}</span>
      {place ? <span className="fold-summary-place">{place}</span> : null}
      <span className="fold-summary-action">
        {action}
        <svg className="chevron" viewBox="0 0 12 12" width="12" height="12" aria-hidden="true" focusable="false">
          <path
            d="M2 4l4 4 4-4"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </span>
    </>
  );
}
