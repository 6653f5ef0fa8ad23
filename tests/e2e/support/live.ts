import type { Page } from "@playwright/test";

/**
 * Resolves once the page's live channel named `name` ("board": the board's,
 * the list's and the calendars' useLiveData) has joined its
 * postgres_changes: Realtime's "Subscribed to PostgreSQL" reply on that
 * channel's topic. Every signed-in page also joins the bell's channel
 * (`bell:<user>`), whose reply can come first: a change made before the
 * page's own channel has joined would never reach it.
 */
export function liveJoined(page: Page, name = "board") {
  return new Promise<void>((resolve) => {
    page.on("websocket", (ws) => {
      ws.on("framereceived", (frame) => {
        const text = typeof frame.payload === "string" ? frame.payload : "";
        if (text.includes("Subscribed to PostgreSQL") && text.includes(`realtime:${name}:`)) resolve();
      });
    });
  });
}
