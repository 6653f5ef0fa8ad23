import fs from "node:fs";
import path from "node:path";
import type { Rollup } from "vite";

/**
 * The browser build's chunks, decided by the route tree (vite.config.ts;
 * issue 16, docs/decisions/0021-browser-weight.md). Left to itself, Rollup
 * gives every set of route modules that share code a chunk of its own: the
 * task page fetched 20 scripts before its first paint, some under 200 bytes,
 * each a request (on HTTP/1.1, six at a time, a round trip each) and a
 * separate compression window. Here a module goes into the file of a route
 * that is sure to be loaded wherever the module is needed:
 *
 * - what the root route and entry.client import (React, Remix, the header)
 *   is one file with entry.client: every page loads it;
 * - a module that a layout route imports itself, and that only that route
 *   and routes under it import, goes into the layout's file: every page that
 *   needs it has loaded the layout.
 *
 * Code that sibling routes share and their parent doesn't import gets a
 * chunk per set of routes, as Rollup would make it, so no page fetches code
 * that none of its routes import; a set counts only its topmost routes (a
 * task page loads the board above it, so code of the board, the list and the
 * task page goes with code of the board and the list). Code loaded with `import()` (the backend
 * client, Realtime, form schemas) keeps its own chunks: only static imports
 * are followed. Zod, which only form schemas import, is named "zod".
 */
export function chunksByRoute(appDirectory: string): Rollup.GetManualChunk {
  // worked out once per build (Rollup asks for every module; each build has its own getModuleInfo)
  let chunkOf = new Map<string, string>();
  let builtFor: unknown;
  return (id, { getModuleInfo, getModuleIds }) => {
    if (/[\\/]node_modules[\\/]zod[\\/]/.test(id)) return "zod";
    if (builtFor !== getModuleInfo) {
      chunkOf = assignChunks(flatRouteFiles(appDirectory), [...getModuleIds()], (moduleId) => {
        return getModuleInfo(moduleId)?.importedIds ?? [];
      });
      builtFor = getModuleInfo;
    }
    return chunkOf.get(id);
  };
}

/** Remix's client build loads each route through this query on its file. */
const CLIENT_ROUTE = "?__remix-build-client-route";

export interface RouteFiles {
  appDirectory: string;
  /** file names in app/routes, flat routes only */
  files: string[];
}

function flatRouteFiles(appDirectory: string): RouteFiles {
  const entries = fs.readdirSync(path.join(appDirectory, "routes"), { withFileTypes: true });
  const folder = entries.find((entry) => !entry.isFile());
  // a folder route (routes/x/route.tsx) would need Remix's own rules for its parent
  if (folder) throw new Error(`chunksByRoute: app/routes/${folder.name} is not a flat route file`);
  return { appDirectory, files: entries.map((entry) => entry.name) };
}

/**
 * Every module reached by static imports from a route (or entry.client) →
 * the name of its chunk. Route parents follow Remix's flat-route names: a
 * route's parent is the longest other route id it starts with, plus a dot
 * (`teams.$team` for `teams.$team.members`; none but root for `login_.mfa`).
 */
export function assignChunks(
  routes: RouteFiles,
  moduleIds: string[],
  importedIds: (id: string) => readonly string[],
): Map<string, string> {
  const SHELL = "root";
  const routeIds = routes.files.map((file) => file.replace(/\.[jt]sx?$/, ""));
  const parentOf = (routeId: string) =>
    routeIds.filter((other) => routeId.startsWith(`${other}.`)).sort((a, b) => b.length - a.length)[0] ?? SHELL;
  // each route and the routes above it, up to the shell: worked out once per route
  const lineages = new Map<string, string[]>();
  for (const routeId of [SHELL, ...routeIds]) {
    const chain = [routeId];
    while (chain[chain.length - 1] !== SHELL) chain.push(parentOf(chain[chain.length - 1]));
    lineages.set(routeId, chain);
  }
  const lineage = (routeId: string) => lineages.get(routeId)!;

  const entries = new Map<string, string>([
    [path.join(routes.appDirectory, "entry.client.tsx"), SHELL],
    [path.join(routes.appDirectory, `root.tsx${CLIENT_ROUTE}`), SHELL],
    ...routes.files.map((file, i): [string, string] => [
      path.join(routes.appDirectory, "routes", `${file}${CLIENT_ROUTE}`),
      routeIds[i],
    ]),
  ]);
  const known = new Set(moduleIds);
  for (const entry of entries.keys())
    if (!known.has(entry)) throw new Error(`chunksByRoute: no module ${entry} in the browser build`);

  // which routes import each module, directly or through other modules
  const importers = new Map<string, Set<string>>();
  for (const [entry, routeId] of entries) {
    const stack = [entry];
    const seen = new Set<string>();
    while (stack.length) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      importers.set(id, (importers.get(id) ?? new Set()).add(routeId));
      stack.push(...importedIds(id));
    }
  }

  const chunkOf = new Map<string, string>();
  // modules that sibling routes share and no ancestor of theirs imports, by the set of routes that do.
  // Every module is named: Rollup pulls an unnamed one into the first named chunk that imports it.
  const shared = new Map<string, string[]>();
  for (const [id, routesOf] of [...importers].sort(([a], [b]) => a.localeCompare(b))) {
    const importing = [...routesOf];
    // the deepest route that imports the module and is above (or is) every route that does
    const owner = lineage(importing[0]).find(
      (candidate) => routesOf.has(candidate) && importing.every((route) => lineage(route).includes(candidate)),
    );
    if (owner) chunkOf.set(id, owner === SHELL ? "entry.client" : owner);
    else {
      // a route under another route of the set loads that one anyway: the pages that need the module are
      // those of the set's topmost routes, so modules whose sets differ only below them share a chunk
      // (the list's and the board's shared code goes with what the board, the list and a task page share)
      const topmost = importing.filter(
        (route) => !importing.some((other) => other !== route && lineage(route).includes(other)),
      );
      const key = topmost.sort().join(" ");
      shared.set(key, [...(shared.get(key) ?? []), id]);
    }
  }
  // each named after the module that brings in the rest ("task-forms", not a module it imports)
  for (const ids of shared.values()) {
    const inside = new Set(ids.flatMap((id) => importedIds(id)));
    const top = ids.find((id) => !inside.has(id)) ?? ids[0];
    const name = path.basename(top.replace(/\?.*$/, "")).replace(/\.[^.]+$/, "");
    for (const id of ids) chunkOf.set(id, name);
  }
  return chunkOf;
}
