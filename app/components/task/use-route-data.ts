import { useRouteLoaderData } from "@remix-run/react";
import type { loader as boardLoader } from "~/routes/teams.$team.projects.$key";
import type { loader as taskLoader } from "~/routes/teams.$team.projects.$key.tasks.$number";

/**
 * The board's and the open task's loader data, for components under them
 * (the task panel is rendered by the task route, or by its /comments child
 * after a comment form comes back).
 */
export const BOARD_ROUTE_ID = "routes/teams.$team.projects.$key";
export const TASK_ROUTE_ID = "routes/teams.$team.projects.$key.tasks.$number";

export function useBoardData() {
  return useRouteLoaderData<typeof boardLoader>(BOARD_ROUTE_ID);
}

export function useTaskData() {
  return useRouteLoaderData<typeof taskLoader>(TASK_ROUTE_ID);
}
