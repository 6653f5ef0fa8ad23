import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  ATTACHMENT_IMAGE_SIZES,
  isPreviewableImage,
  SIGNED_URL_SECONDS,
  type AttachmentImageSize,
} from "~/lib/attachments";
import { requireUser } from "~/lib/auth.server";
import { backendError, notFound, redirect } from "~/lib/http.server";
import { requestClient } from "~/lib/supabase.server";

/**
 * An attachment's lasting address (`/attachments/<id>`): a redirect to a
 * fresh 60-second signed URL of the file, so links and pictures in texts
 * never expire. `?size=thumb|inline` answers with the picture Storage's
 * image transformation makes (never the full file) for image attachments.
 * Row-level security decides: an attachment the person may not see is a 404,
 * exactly like one that does not exist.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  if (!UUID.test(params.id ?? "")) throw notFound();
  const supabase = requestClient();
  const { data: row, error } = await supabase
    .from("attachments")
    .select("object_path, content_type")
    .eq("id", params.id!)
    .maybeSingle();
  if (error) throw backendError(error);
  if (!row) throw notFound();

  const size = new URL(request.url).searchParams.get("size");
  const transform =
    size && size in ATTACHMENT_IMAGE_SIZES && isPreviewableImage(row.content_type)
      ? ATTACHMENT_IMAGE_SIZES[size as AttachmentImageSize]
      : undefined;
  const signed = await supabase.storage
    .from("attachments")
    .createSignedUrl(row.object_path, SIGNED_URL_SECONDS, transform ? { transform } : undefined);
  if (signed.error) throw backendError(signed.error);
  // the browser may reuse the answer while the signed URL still works
  return redirect(signed.data.signedUrl, {
    headers: { "cache-control": `private, max-age=${SIGNED_URL_SECONDS - 10}` },
  });
}
