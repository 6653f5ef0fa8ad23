import { Link, useNavigation, useRouteLoaderData, type Navigation } from "@remix-run/react";
import { createContext, useContext, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { Flash } from "~/lib/flash.server";
import type { RootData } from "~/root";

/** The message on top of the page (a form that stays on screen shows its own beside its button instead). */
export function FlashMessage({ flash }: { flash: Flash | null }) {
  if (!flash) return null;
  return (
    <div className={`alert alert-${flash.kind}`} role="status">
      <FlashText flash={flash} />
    </div>
  );
}

/** The message, and its link when it has one. */
function FlashText({ flash }: { flash: Flash }) {
  return (
    <>
      {flash.message}
      {flash.link ? (
        <>
          {" "}
          <Link to={flash.link.href}>{flash.link.text}</Link>
        </>
      ) : null}
    </>
  );
}

/** Given by the root: a form that shows the page's message itself takes it off the top. */
export const ClaimFlash = createContext<(flash: Flash) => void>(() => {});

// before the browser paints, so the message never shows twice; the server renders no answer to a form
const useBeforePaint = typeof document === "undefined" ? useEffect : useLayoutEffect;

/**
 * With JavaScript, the success message of a form the person just sent from
 * this part of the page (`sentHere` tells, while the submission is under
 * way): shown where they are looking — beside the form's button — rather
 * than at the top of a page they may have scrolled away from (issue 29). It
 * goes once another navigation starts. Without JavaScript the page reloads
 * at its top, where the root shows it.
 */
export function useConfirmationHere(sentHere: (navigation: Navigation) => boolean): Flash | null {
  const navigation = useNavigation();
  const flash = useRouteLoaderData<RootData>("root")?.flash ?? null;
  const claim = useContext(ClaimFlash);
  // while a submission of ours is under way: the message the page had before it
  const mine = useRef<{ before: Flash | null } | null>(null);
  const [shown, setShown] = useState<Flash | null>(null);
  const ours = navigation.state !== "idle" && sentHere(navigation);
  useBeforePaint(() => {
    if (navigation.state !== "idle") {
      if (ours && !mine.current) mine.current = { before: flash };
      setShown(null);
    } else if (mine.current) {
      // a rejected form leaves the root's data (and an older message) as it was
      const fresh = flash !== mine.current.before;
      mine.current = null;
      if (fresh && flash?.kind === "success") {
        claim(flash);
        setShown(flash);
      }
    }
  }, [navigation.state, ours, flash, claim]);
  return shown;
}

/** The confirmation beside a form's button: a status, so screen readers say it too, and brought into view. */
export function ConfirmationBeside({ flash }: { flash: Flash | null }) {
  const ref = useRef<HTMLSpanElement>(null);
  // after the router has placed the page (a form without preventScrollReset lands at its top)
  useEffect(() => {
    if (flash) ref.current?.scrollIntoView({ block: "nearest" });
  }, [flash]);
  return flash ? (
    <span className="confirmation-beside" role="status" ref={ref}>
      <FlashText flash={flash} />
    </span>
  ) : null;
}
