import { useRouteLoaderData } from "@remix-run/react";
import { avatarPixels, avatarUrl, initials } from "~/lib/avatars";

/** The sizes app.css has a class for (`avatar-24`…): the page's CSP allows no inline styles. */
export type AvatarSize = 18 | 20 | 24 | 64;

/** A person's avatar from the public `avatars` bucket (32, 64 or 128 px, made by Storage), or their initials. Decorative: the name is always beside it. */
export function Avatar({
  path,
  name,
  size = 24,
}: {
  path: string | null | undefined;
  name: string | null | undefined;
  size?: AvatarSize;
}) {
  const root = useRouteLoaderData("root") as { env?: { SUPABASE_URL: string } } | undefined;
  const base = root?.env?.SUPABASE_URL;
  const url = base ? avatarUrl(base, path, avatarPixels(size)) : null;
  const sharp = base ? avatarUrl(base, path, avatarPixels(size, 2)) : null;
  if (url)
    return (
      <img
        className={`avatar avatar-${size}`}
        src={url}
        srcSet={sharp && sharp !== url ? `${url} 1x, ${sharp} 2x` : undefined}
        alt=""
        width={size}
        height={size}
        loading="lazy"
        data-avatar="image"
      />
    );
  return (
    <span className={`avatar avatar-${size} avatar-initials`} aria-hidden="true" data-avatar="initials">
      {initials(name)}
    </span>
  );
}
