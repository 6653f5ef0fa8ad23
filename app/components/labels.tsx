import type { LabelChip } from "~/lib/board";

/*
 * Colours go on as the class color-<name> (app/styles/palette.css); the
 * database holds every status's and label's colour to the palette. These
 * take no import from lib/palette.ts, so the board's pages load none of it
 * (its chunk is the settings and labels pages', scripts/chunks-by-route.ts).
 */

/** A task's labels as coloured chips (the colour is a tint; the name is the text, so the colour is never the only sign). */
export function LabelChips({ labels }: { labels: LabelChip[] }) {
  if (labels.length === 0) return null;
  return (
    <ul className="labels" aria-label="Labels">
      {labels.map((label) => (
        <li key={label.id} className={`label color-${label.color}`}>
          {label.name}
        </li>
      ))}
    </ul>
  );
}

/** A status's name with its colour's dot, wherever a task's status is written out. */
export function StatusBadge({ status }: { status: { name: string; color: string } }) {
  return (
    <span className={`status-badge color-${status.color}`}>
      <span className="swatch" aria-hidden="true" />
      {status.name}
    </span>
  );
}
