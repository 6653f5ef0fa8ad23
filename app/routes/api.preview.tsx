import type { ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/lib/auth.server";
import { MESSAGES } from "~/lib/messages";
import { requestClient } from "~/lib/supabase.server";
import { renderTexts } from "~/lib/text.server";

/**
 * "Preview" with JavaScript: POST {text, team} → {html}, the text rendered
 * exactly as it will be shown (references resolved as the person may see
 * them). Without JavaScript the form's own action answers the same button
 * (docs/product.md §14). The Markdown renderer stays on the server.
 */
const MAX_TEXT = 10_000;
const SLUG = /^[a-z0-9-]{3,40}$/;

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  // the servers refuse a body that isn't a form (415, form-bodies.server); one that is, garbled, is the sender's
  const form = await request.formData().catch(() => null);
  if (!form) return Response.json({ html: null, message: MESSAGES.notAForm }, { status: 400 });
  const text = String(form.get("text") ?? "").slice(0, MAX_TEXT);
  const team = String(form.get("team") ?? "");
  if (!SLUG.test(team)) return Response.json({ html: null }, { status: 404 });
  const [html] = await renderTexts(requestClient(), team, [text]);
  return Response.json({ html });
}
