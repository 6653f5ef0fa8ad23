/**
 * The theme (docs/product.md §13): light, dark, or as the system says.
 * Shared by the server (which draws <html> with it) and the /account form.
 */
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_LABELS: Record<Theme, string> = {
  system: "As the system",
  light: "Light",
  dark: "Dark",
};

export function isTheme(value: unknown): value is Theme {
  return typeof value === "string" && (THEMES as readonly string[]).includes(value);
}

/**
 * Where the dark stylesheet applies: always (dark), when the system asks for
 * it (system), never (light: not linked at all). A `media` the browser reads
 * before the first paint, so the page never shows the other theme first.
 */
export function darkMedia(theme: Theme): string | null {
  if (theme === "dark") return "all";
  if (theme === "system") return "(prefers-color-scheme: dark)";
  return null;
}

/** `<meta name="color-scheme">`: what the browser draws its own parts in before and beside the stylesheets. */
export function colorScheme(theme: Theme): string {
  return theme === "system" ? "light dark" : theme;
}
