/**
 * Every route action keeps what was typed when the backend is down
 * (docs/product.md §8): it is `keepingTheForm(…)`, or it says on the line
 * above why it takes no form (`// not a form: …`, a resource route that a
 * script calls and that answers in JSON). A new action that is neither fails
 * here, naming its file.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROUTES = path.resolve(import.meta.dirname, "../../app/routes");
const ACTION = /^export\s+(?:async\s+function\s+action\b|function\s+action\b|const\s+action\s*=\s*(.*))/m;
const REASON = /\/\/ not a form: \S.{10,}$/;

function verdict(source: string): "wrapped" | "reason" | "unwrapped" | "none" {
  const match = ACTION.exec(source);
  if (!match) return "none";
  if (match[1] !== undefined && /^keepingTheForm\(\w+\);?$/.test(match[1].trim())) return "wrapped";
  const lineAbove = source.slice(0, match.index).trimEnd().split("\n").pop() ?? "";
  return REASON.test(lineAbove) ? "reason" : "unwrapped";
}

describe("route actions", () => {
  const files = fs.readdirSync(ROUTES).filter((f) => /\.tsx?$/.test(f));
  const verdicts = Object.fromEntries(files.map((f) => [f, verdict(fs.readFileSync(path.join(ROUTES, f), "utf8"))]));

  it("are all wrapped in keepingTheForm, or say why they take no form", () => {
    const unwrapped = files.filter((f) => verdicts[f] === "unwrapped");
    expect(unwrapped, "wrap these actions: export const action = keepingTheForm(submit)").toEqual([]);
    // the count, so a route that stops having an action is seen too (41 when this was written)
    expect(files.filter((f) => verdicts[f] !== "none").length).toBeGreaterThanOrEqual(41);
  });

  it("the check itself tells the three apart", () => {
    expect(verdict("export const action = keepingTheForm(submit);\nasync function submit() {}")).toBe("wrapped");
    expect(verdict("export async function action({ request }: ActionFunctionArgs) {\n}")).toBe("unwrapped");
    expect(verdict("export const action = async () => null;")).toBe("unwrapped");
    expect(verdict("export const action = keepingTheForm(a) || b;")).toBe("unwrapped");
    expect(verdict("// not a form\nexport async function action() {}")).toBe("unwrapped");
    expect(verdict("// not a form: the script's JSON upload\nexport async function action() {}")).toBe("reason");
    expect(verdict("export async function loader() {}")).toBe("none");
  });
});
