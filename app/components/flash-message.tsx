import type { Flash } from "~/lib/flash.server";

export function FlashMessage({ flash }: { flash: Flash | null }) {
  if (!flash) return null;
  return (
    <div className={`alert alert-${flash.kind}`} role="status">
      {flash.message}
    </div>
  );
}
