import { useFetcher } from "@remix-run/react";
import { FormAlert } from "~/components/form";

/**
 * Watch / Stop watching (docs/product.md §10) and how many people watch. A plain
 * form post (to the task's /watching route); with JavaScript it is sent in
 * place and the button says what it will do next at once.
 */
export function WatchForm({ watching, watchers, action }: { watching: boolean; watchers: number; action: string }) {
  const fetcher = useFetcher<{ errors?: { form?: string } }>();
  // the backend was down (keepingTheForm): said beside the button, which stays as it was
  const refused = fetcher.state === "idle" ? fetcher.data?.errors?.form : undefined;
  const pending = fetcher.formData?.get("intent");
  const shownWatching = pending ? pending === "watch" : watching;
  const shownCount = watchers + (pending ? (shownWatching ? 1 : -1) * (watching === shownWatching ? 0 : 1) : 0);
  return (
    <fetcher.Form method="post" action={action} className="watch-form small" preventScrollReset>
      {refused ? <FormAlert>{refused}</FormAlert> : null}
      <input type="hidden" name="intent" value={shownWatching ? "unwatch" : "watch"} />
      <button type="submit" className="button button-small button-secondary">
        {shownWatching ? "Stop watching" : "Watch"}
      </button>{" "}
      <span className="muted">
        {shownCount === 1 ? "1 person watches" : `${shownCount} people watch`}
        {shownWatching ? " (you included)" : ""}
      </span>
    </fetcher.Form>
  );
}
