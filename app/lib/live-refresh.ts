/**
 * Set while a live page (app/lib/live.ts) has Remix read its data again
 * because of someone else's change; routes' shouldRevalidate read it. The
 * root's data (who is signed in, the one-time flash message) doesn't change
 * with a task, and reading it again would use up a flash message this tab is
 * showing. Tiny on purpose: the root imports it.
 *
 * The router may consult shouldRevalidate a little after revalidate() was
 * called, so the mark lasts until that revalidation ends (at most a few
 * seconds), and only ever applies to a revalidation: same URL, no form.
 */
export const liveRefresh: { scope: "board" | "task" | null; until: number } = { scope: null, until: 0 };

export function isLiveRefresh(
  args: { formMethod?: string; currentUrl: URL; nextUrl: URL },
  scope?: "board" | "task",
): boolean {
  if (liveRefresh.scope === null || Date.now() > liveRefresh.until) return false;
  if (args.formMethod || args.currentUrl.href !== args.nextUrl.href) return false;
  return scope === undefined || liveRefresh.scope === scope;
}
