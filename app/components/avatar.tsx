import { useRouteLoaderData } from "@remix-run/react";
import { avatarUrl, initials } from "~/lib/avatars";

/** A person's avatar from the public `avatars` bucket, or their initials. Decorative: the name is always beside it. */
export function Avatar({
  path,
  name,
  size = 24,
}: {
  path: string | null | undefined;
  name: string | null | undefined;
  size?: number;
}) {
  const root = useRouteLoaderData("root") as { env?: { SUPABASE_URL: string } } | undefined;
  const url = root?.env ? avatarUrl(root.env.SUPABASE_URL, path) : null;
  const style = { width: size, height: size, fontSize: Math.max(10, Math.round(size * 0.42)) };
  if (url)
    return (
      <img
        className="avatar"
        src={url}
        alt=""
        width={size}
        height={size}
        style={style}
        loading="lazy"
        data-avatar="image"
      />
    );
  return (
    <span className="avatar avatar-initials" aria-hidden="true" style={style} data-avatar="initials">
      {initials(name)}
    </span>
  );
}
