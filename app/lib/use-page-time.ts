import { useRouteLoaderData } from "@remix-run/react";
import type { RootData } from "~/root";
import { dateInZone, UTC_ZONE, type PageTime } from "./dates";

/**
 * The viewer's time zone and today's date, as the root loader worked them out
 * for this page (the server's HTML and the hydration read the same data).
 * Outside the root's data (its own error page) UTC.
 */
export function usePageTime(): PageTime {
  const root = useRouteLoaderData<RootData>("root");
  const now = Date.now();
  return root?.time ?? { zone: UTC_ZONE, today: dateInZone(now, UTC_ZONE), now };
}
