import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/lib/auth.server";
import { unreadCount } from "~/lib/notifications.server";
import { requestClient } from "~/lib/supabase.server";

/** The bell's count again, for the header when a notification was read elsewhere (JSON). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return { unread: await unreadCount(requestClient()) };
}
