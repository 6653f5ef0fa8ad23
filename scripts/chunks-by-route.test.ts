import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { assignChunks, chunksByRoute } from "./chunks-by-route";

/**
 * A module graph shaped like the app's: root and entry.client, a team layout
 * with a board route under it and two task routes under that, login with a
 * `login_.mfa` page beside it (not under it). Each key imports its values.
 */
const APP = "/app";
const route = (file: string) => `${APP}/routes/${file}?__remix-build-client-route`;
const source = (file: string) => `${APP}/${file}`;
const ROUTE_FILES = [
  "login.tsx",
  "login_.mfa.tsx",
  "teams.$team.tsx",
  "teams.$team.members.tsx",
  "teams.$team.projects.$key.tsx",
  "teams.$team.projects.$key.tasks.new.tsx",
  "teams.$team.projects.$key.tasks.$number.tsx",
  "teams.$team.projects.$key_.list.tsx",
];
const GRAPH: Record<string, string[]> = {
  [source("entry.client.tsx")]: ["/node_modules/react-dom/index.js"],
  [source("root.tsx?__remix-build-client-route")]: [source("components/site-header.tsx")],
  [source("components/site-header.tsx")]: [source("components/avatar.tsx")],
  [route("login.tsx")]: [source("components/form.tsx"), source("components/code-form.tsx")],
  [route("login_.mfa.tsx")]: [source("components/code-form.tsx")],
  [route("teams.$team.tsx")]: [source("lib/team-nav.ts"), source("components/avatar.tsx")],
  [route("teams.$team.members.tsx")]: [source("lib/team-nav.ts"), source("components/form.tsx")],
  [route("teams.$team.projects.$key.tsx")]: [
    source("lib/live.ts"),
    source("components/board.tsx"),
    source("components/project-tabs.tsx"),
    source("lib/task-live.ts"),
  ],
  // beside the board (not under it): the tabs and live data, as the board has them
  [route("teams.$team.projects.$key_.list.tsx")]: [source("components/project-tabs.tsx"), source("lib/task-live.ts")],
  [route("teams.$team.projects.$key.tasks.new.tsx")]: [
    source("components/task-forms.tsx"),
    source("lib/live.ts"),
    source("components/form.tsx"),
  ],
  [route("teams.$team.projects.$key.tasks.$number.tsx")]: [
    source("components/task-forms.tsx"),
    source("components/task-panel.tsx"),
    source("components/form.tsx"),
    source("lib/task-live.ts"),
  ],
  [source("components/task-forms.tsx")]: [source("components/fields.tsx")],
  // reached only through import(): not followed
  [source("lib/live.ts")]: [],
  [source("lib/realtime.client.ts")]: ["/node_modules/@supabase/realtime-js/index.js"],
};
const MODULES = [...new Set([...Object.keys(GRAPH), ...Object.values(GRAPH).flat(), ...ROUTE_FILES.map(route)])];
const chunks = () => assignChunks({ appDirectory: APP, files: ROUTE_FILES }, MODULES, (id) => GRAPH[id] ?? []);

test("what root and entry.client import is one file with entry.client, even where routes import it too", () => {
  const chunkOf = chunks();
  expect(chunkOf.get(source("entry.client.tsx"))).toBe("entry.client");
  expect(chunkOf.get(source("root.tsx?__remix-build-client-route"))).toBe("entry.client");
  expect(chunkOf.get("/node_modules/react-dom/index.js")).toBe("entry.client");
  expect(chunkOf.get(source("components/site-header.tsx"))).toBe("entry.client");
  // the team layout imports the avatar too: every page has it already
  expect(chunkOf.get(source("components/avatar.tsx"))).toBe("entry.client");
});

test("a layout's own imports that only routes under it share go into the layout's file", () => {
  const chunkOf = chunks();
  expect(chunkOf.get(source("lib/team-nav.ts"))).toBe("teams.$team");
  expect(chunkOf.get(route("teams.$team.members.tsx"))).toBe("teams.$team.members");
  // the board route imports live.ts, and so does new task, which is under it
  expect(chunkOf.get(source("lib/live.ts"))).toBe("teams.$team.projects.$key");
  expect(chunkOf.get(source("components/board.tsx"))).toBe("teams.$team.projects.$key");
  expect(chunkOf.get(source("components/task-panel.tsx"))).toBe("teams.$team.projects.$key.tasks.$number");
});

test("code that siblings share but their parent doesn't import gets a chunk per set of routes, not the parent's file", () => {
  const chunkOf = chunks();
  // both task routes, not the board: the board page must not fetch them
  expect(chunkOf.get(source("components/task-forms.tsx"))).toBe("task-forms");
  expect(chunkOf.get(source("components/fields.tsx"))).toBe("task-forms");
  // login_.mfa is not under login, so login's file is not loaded there
  expect(chunkOf.get(source("components/code-form.tsx"))).toBe("code-form");
  // a different set of routes: a chunk of its own
  expect(chunkOf.get(source("components/form.tsx"))).toBe("form");
});

test("modules reached only through import() are left to Rollup", () => {
  const chunkOf = chunks();
  expect(chunkOf.has(source("lib/realtime.client.ts"))).toBe(false);
  expect(chunkOf.has("/node_modules/@supabase/realtime-js/index.js")).toBe(false);
});

test("the build stops when a route it expects is not in the graph", () => {
  expect(() =>
    assignChunks({ appDirectory: APP, files: [...ROUTE_FILES, "search.tsx"] }, MODULES, (id) => GRAPH[id] ?? []),
  ).toThrow(/no module \/app\/routes\/search\.tsx\?__remix-build-client-route/);
});

let folder = "";
afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

test("reads the flat route files of app/routes, names Zod's chunk, and stops at a folder route", () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "chunks-by-route-"));
  fs.mkdirSync(path.join(folder, "routes"));
  for (const file of ["login.tsx", "teams.$team.tsx"]) fs.writeFileSync(path.join(folder, "routes", file), "");
  const ids = [
    path.join(folder, "entry.client.tsx"),
    path.join(folder, "root.tsx?__remix-build-client-route"),
    path.join(folder, "routes", "login.tsx?__remix-build-client-route"),
    path.join(folder, "routes", "teams.$team.tsx?__remix-build-client-route"),
  ];
  const meta = {
    getModuleIds: () => ids.values(),
    getModuleInfo: () => ({ importedIds: [] }),
  } as unknown as Parameters<ReturnType<typeof chunksByRoute>>[1];
  const manualChunks = chunksByRoute(folder);
  expect(manualChunks("/x/node_modules/zod/lib/index.mjs", meta)).toBe("zod");
  expect(manualChunks(ids[3], meta)).toBe("teams.$team");
  expect(manualChunks(ids[0], meta)).toBe("entry.client");

  fs.mkdirSync(path.join(folder, "routes", "account"));
  expect(() => chunksByRoute(folder)("x", meta)).toThrow(/app\/routes\/account is not a flat route file/);
});

test("code the board and the list share goes with what they share with a task page (loaded with the board anyway)", () => {
  const chunkOf = chunks();
  // project-tabs: board + list; task-live: board, list and a task page, which is under the board
  expect(chunkOf.get(source("components/project-tabs.tsx"))).toBe(chunkOf.get(source("lib/task-live.ts")));
  // the board's own modules stay in its file; what only task pages share stays apart from the list
  expect(chunkOf.get(source("components/board.tsx"))).toBe("teams.$team.projects.$key");
  expect(chunkOf.get(source("components/task-forms.tsx"))).not.toBe(chunkOf.get(source("lib/task-live.ts")));
});
