import { useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * True while a navigation is on its way to a URL inside `path` (the segment's
 * own URL) — so each nested layout shows its own pending state, and a layout
 * doesn't dim for a navigation that leaves it.
 */
export function usePendingUnder(path: string, { exact = false }: { exact?: boolean } = {}): boolean {
  const navigation = useNavigation();
  if (navigation.state === "idle" || !navigation.location) return false;
  const target = navigation.location.pathname.replace(/\/+$/, "");
  const base = path.replace(/\/+$/, "");
  return exact ? target === base : target === base || target.startsWith(`${base}/`);
}

/** A polite "Loading…" for one segment, announced to screen readers. */
export function PendingNotice({ pending, children = "Loading…" }: { pending: boolean; children?: ReactNode }) {
  return (
    <p className="segment-pending" role="status" aria-live="polite" hidden={!pending}>
      {pending ? children : null}
    </p>
  );
}
