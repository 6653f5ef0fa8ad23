/**
 * The 10 colours statuses and labels are drawn in (docs/product.md §11). The
 * names are the database's (the `palette_color` enum); what each looks like,
 * on the light and the dark theme, is app/styles/palette.css, checked for
 * WCAG AA contrast by palette.test.ts.
 */
export const PALETTE = [
  "gray",
  "red",
  "orange",
  "yellow",
  "green",
  "teal",
  "blue",
  "indigo",
  "purple",
  "pink",
] as const;
export type PaletteColor = (typeof PALETTE)[number];

export const COLOR_LABELS: Record<PaletteColor, string> = {
  gray: "Gray",
  red: "Red",
  orange: "Orange",
  yellow: "Yellow",
  green: "Green",
  teal: "Teal",
  blue: "Blue",
  indigo: "Indigo",
  purple: "Purple",
  pink: "Pink",
};

export const COLOR_OPTIONS = PALETTE.map((color) => ({ value: color, label: COLOR_LABELS[color] }));

export function isPaletteColor(value: unknown): value is PaletteColor {
  return typeof value === "string" && (PALETTE as readonly string[]).includes(value);
}

/** The class that paints a chip, a swatch or a column's edge in a palette colour. */
export function colorClass(color: string): string {
  return `color-${isPaletteColor(color) ? color : "gray"}`;
}
