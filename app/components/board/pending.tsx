import type { ReactNode } from "react";

/** A polite "Loading…" for one segment, announced to screen readers. */
export function PendingNotice({ pending, children = "Loading…" }: { pending: boolean; children?: ReactNode }) {
  return (
    <p className="segment-pending" role="status" aria-live="polite" hidden={!pending}>
      {pending ? children : null}
    </p>
  );
}
