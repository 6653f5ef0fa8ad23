import { data } from "@remix-run/node";
import { getUser, needsSecondFactor } from "~/lib/auth.server";
import { unreadCount } from "~/lib/notifications.server";
import { requestClient } from "~/lib/supabase.server";

/**
 * The bell's count again, for the header when a notification was read
 * elsewhere (JSON, read by a fetcher). Without a session (it ended while the
 * page was open: Log out in this tab or another) the answer is a 401 with no
 * count, not the sign-in redirect every page gives: a fetcher follows a
 * redirect with the whole page, which left a person who had just logged out
 * on /login?next=/notifications/count instead of /login.
 */
export async function loader() {
  const user = await getUser();
  if (!user || needsSecondFactor(user)) return data({ unread: null }, { status: 401 });
  return { unread: await unreadCount(requestClient()) };
}
