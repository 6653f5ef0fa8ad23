import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/lib/auth.server";
import { backendError, notFound, redirect } from "~/lib/http.server";
import { openNotification } from "~/lib/notifications.server";
import { requestClient } from "~/lib/supabase.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Opening a notification: marks it read and goes to its task. A link, so it
 * opens in a new tab too; marking one's own notification read is all it
 * changes. Someone else's, or one about a team the person has left: 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  if (!params.id || !UUID.test(params.id)) throw notFound();
  const { error, path } = await openNotification(requestClient(), params.id);
  if (error) throw backendError(error);
  if (!path) throw notFound();
  throw redirect(path);
}
