import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PALETTE } from "./palette";

/**
 * The palette (app/styles/palette.css) meets WCAG 2.1 AA on both themes:
 * a chip's text on its background at least 4.5:1 (1.4.3), swatches and
 * column edges at least 3:1 against the surfaces they sit on (1.4.11).
 */
const read = (file: string) => fs.readFileSync(path.resolve(import.meta.dirname, "../styles", file), "utf8");
const css = read("palette.css");

/** A rule's palette properties: the first `selector {` block of the file. */
function block(selector: string, file = css): Record<string, string> {
  const start = file.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`no ${selector} block`);
  const body = file.slice(start, file.indexOf("}", start));
  return Object.fromEntries(
    [...body.matchAll(/(--palette-[a-z]+-[a-z]+):\s*(#[0-9a-f]{6})/gi)].map((m) => [m[1], m[2]]),
  );
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const THEMES = {
  // app.css's --surface and --bg, and the board's column background
  light: { file: css, surfaces: ["#ffffff", "#f6f7fb", "#eceef5"] },
  // dark.css (linked when the dark theme applies): the range its page and card surfaces stay in
  dark: { file: read("dark.css"), surfaces: ["#12151c", "#1f2430"] },
};

describe("the palette meets WCAG AA on the light and the dark theme", () => {
  for (const [theme, { file, surfaces }] of Object.entries(THEMES)) {
    const vars = block(":root", file);
    it(`${theme}: every colour is defined`, () => {
      for (const color of PALETTE)
        for (const part of ["fg", "bg", "solid"])
          expect(vars[`--palette-${color}-${part}`], `${color}-${part}`).toBeDefined();
    });
    for (const color of PALETTE) {
      it(`${theme} ${color}: chip text ≥ 4.5:1, swatch ≥ 3:1 on every surface`, () => {
        const [fg, bg, solid] = ["fg", "bg", "solid"].map((part) => vars[`--palette-${color}-${part}`]);
        expect(contrast(fg, bg)).toBeGreaterThanOrEqual(4.5);
        for (const surface of surfaces) expect(contrast(solid, surface), surface).toBeGreaterThanOrEqual(3);
      });
    }
  }

  it("every colour has a class that paints with it", () => {
    for (const color of PALETTE) expect(css).toContain(`.color-${color} {`);
  });
});
