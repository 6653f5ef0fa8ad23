import { useEffect, useRef } from "react";

/**
 * A hidden `timeZone` field that carries the browser's time zone when
 * JavaScript runs (without it the field stays empty and the account starts
 * in UTC). The zone is read when the person first focuses the form, or at
 * the latest when it is sent, not during hydration: the browser's first
 * Intl.DateTimeFormat loads ICU's zone data (docs/decisions/0021).
 */
export function BrowserTimeZone() {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const input = ref.current;
    const form = input?.form;
    if (!input || !form) return;
    const fill = () => {
      if (input.value) return;
      try {
        input.value = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "";
      } catch {
        // a browser without time zone data: the server's UTC it is
      }
    };
    form.addEventListener("focusin", fill);
    // capture: before Remix's own submit handler reads the form
    form.addEventListener("submit", fill, true);
    return () => {
      form.removeEventListener("focusin", fill);
      form.removeEventListener("submit", fill, true);
    };
  }, []);
  return <input ref={ref} type="hidden" name="timeZone" defaultValue="" />;
}
