import type { LinksFunction, MetaFunction } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunction,
  useLocation,
  useNavigate,
  useNavigation,
  useRevalidator,
  useRouteLoaderData,
} from "@remix-run/react";
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from "react";
import { ErrorPage } from "~/components/error-page";
import { ClaimFlash, FlashMessage } from "~/components/flash-message";
import { SiteHeader } from "~/components/site-header";
import { getUser } from "~/lib/auth.server";
import { formWasRejected } from "~/lib/revalidation";
import {
  announceSignIn,
  announceUserUpdate,
  onUserUpdateElsewhere,
  getBrowserClient,
  handleAuthEvent,
} from "~/lib/browser-auth";
import { isLiveRefresh } from "~/lib/live-refresh";
import { publicEnv } from "~/lib/env.server";
import { takeFlash } from "~/lib/flash.server";
import { pageTime } from "~/lib/time-zones.server";
import { unreadCount } from "~/lib/notifications.server";
import { requestClient } from "~/lib/supabase.server";
import { useNonce } from "~/lib/nonce";
import { handleShortcut, ShortcutsHelp } from "~/lib/shortcuts";
import { colorScheme, darkMedia } from "~/lib/theme";
import { pageTheme } from "~/lib/theme.server";
import styles from "~/styles/app.css?url";
import darkStyles from "~/styles/dark.css?url";

export const meta: MetaFunction = () => [
  { title: "Teamboard" },
  { name: "description", content: "A small team task tracker." },
];

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "stylesheet", href: styles },
];

export async function loader() {
  const user = await getUser();
  // the bell's count: beside the page's own reads (every loader starts with the same memoised claims)
  const [flash, unread] = await Promise.all([takeFlash(), user ? unreadCount(requestClient()) : null]);
  return {
    env: publicEnv,
    theme: pageTheme(user),
    user: user ? { id: user.id, email: user.email, displayName: user.displayName, avatarPath: user.avatarPath } : null,
    unread,
    flash,
    // the zone's offsets and today's date, so that the page and its hydration print times alike (dates.ts)
    time: pageTime(user?.timeZone ?? "UTC"),
  };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

/** A live page's refresh (someone else changed a task) leaves the root's data alone: see live-refresh.ts. */
export const shouldRevalidate: ShouldRevalidateFunction = (args) =>
  !isLiveRefresh(args) && !formWasRejected(args) && args.defaultShouldRevalidate;

/**
 * The document. The theme is in its first HTML (docs/product.md §13): the
 * `data-theme` attribute, the browser's own colour scheme, and the dark
 * stylesheet with a `media` that says when it applies (always, or when the
 * system is dark), after every other stylesheet so its colours win. Nothing
 * waits for JavaScript, so no page ever shows the other theme first.
 */
export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // absent when the root loader itself failed (its error page): as the system says
  const theme = useRouteLoaderData<typeof loader>("root")?.theme ?? "system";
  const dark = darkMedia(theme);
  return (
    <html lang="en" data-theme={theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={colorScheme(theme)} />
        <Meta />
        <Links />
        {dark ? <link rel="stylesheet" href={darkStyles} media={dark} /> : null}
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** The `?` dialog's code arrives the first time it opens (lib/shortcuts.ts). */
const ShortcutsDialog = lazy(() => import("~/components/shortcuts-dialog"));

export default function App() {
  const { user, flash, env, unread } = useRouteLoaderData<typeof loader>("root")!;
  useBrowserAuth(env, user);
  const [helpOpen, setHelpOpen] = useState(false);
  // the message a form on the page shows beside its own button (components/flash-message)
  const [claimed, setClaimed] = useState<RootData["flash"]>(null);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => handleShortcut(event, () => setHelpOpen(true));
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
  // the two-factor code page: signed in halfway (only /login/mfa is reached that way)
  const halfway = useLocation().pathname.startsWith("/login/mfa");
  return (
    <ShortcutsHelp.Provider value={() => setHelpOpen(true)}>
      <SiteHeader user={user} unread={unread} halfway={halfway} />
      <main id="main" className="main">
        <FlashMessage flash={flash === claimed ? null : flash} />
        <ClaimFlash.Provider value={setClaimed}>
          <Outlet />
        </ClaimFlash.Provider>
      </main>
      {helpOpen ? (
        <Suspense fallback={null}>
          <ShortcutsDialog onClose={() => setHelpOpen(false)} />
        </Suspense>
      ) : null}
    </ShortcutsHelp.Provider>
  );
}

/** Starts the browser client after hydration and wires docs/product.md §1's event table to this tab. */
function useBrowserAuth(env: RootData["env"], user: RootData["user"]) {
  const serverUserId = user?.id ?? null;
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const location = useLocation();
  const latest = useRef({ navigate, revalidator, pathname: location.pathname, serverUserId });
  latest.current = { navigate, revalidator, pathname: location.pathname, serverUserId };

  useEffect(() => {
    let unsubscribe: (() => void) | null = null;
    let cancelled = false;
    void getBrowserClient({ SUPABASE_URL: env.SUPABASE_URL, SUPABASE_ANON_KEY: env.SUPABASE_ANON_KEY }).then(
      (client) => {
        if (cancelled) return;
        const { data: subscription } = client.onAuthStateChange((event, session) => {
          // Run outside the auth lock: navigation may call the client again.
          setTimeout(() =>
            handleAuthEvent(event, session, {
              serverUserId: () => latest.current.serverUserId,
              revalidate: () => latest.current.revalidator.revalidate(),
              navigate: (to) => latest.current.navigate(to),
              pathname: () => latest.current.pathname,
            }),
          );
        });
        unsubscribe = () => subscription.subscription.unsubscribe();
      },
    );
    // another tab changed the person (its own announcement below)
    const stopListening = onUserUpdateElsewhere(() => latest.current.revalidator.revalidate());
    return () => {
      cancelled = true;
      unsubscribe?.();
      stopListening();
    };
  }, [env.SUPABASE_URL, env.SUPABASE_ANON_KEY]);

  // Sign-ins happen on the server (form posts); when this tab has just become
  // signed in, tell the other tabs through the browser client (SIGNED_IN).
  const previousUserId = useRef(serverUserId);
  useEffect(() => {
    const previous = previousUserId.current;
    previousUserId.current = serverUserId;
    if (!serverUserId || previous === serverUserId) return;
    void getBrowserClient({ SUPABASE_URL: env.SUPABASE_URL, SUPABASE_ANON_KEY: env.SUPABASE_ANON_KEY }).then(
      announceSignIn,
    );
  }, [serverUserId, env.SUPABASE_URL, env.SUPABASE_ANON_KEY]);

  // When a form post of this tab changed the name, email or avatar shown,
  // tell the other tabs. Not after a revalidation that such an announcement
  // caused here, or the tabs would keep announcing to each other.
  const navigation = useNavigation();
  const submitting = useRef(false);
  const shownUser = user ? `${user.id} ${user.displayName ?? ""} ${user.email} ${user.avatarPath ?? ""}` : null;
  const previousShownUser = useRef(shownUser);
  useEffect(() => {
    const previous = previousShownUser.current;
    previousShownUser.current = shownUser;
    if (!submitting.current || !serverUserId || previous === shownUser || !previous?.startsWith(`${serverUserId} `))
      return;
    announceUserUpdate();
  }, [shownUser, serverUserId]);
  // Declared after the effect above: on the render that ends a submission, that effect still sees it.
  useEffect(() => {
    submitting.current =
      navigation.state !== "idle" &&
      navigation.formMethod !== undefined &&
      navigation.formMethod.toUpperCase() !== "GET";
  }, [navigation.state, navigation.formMethod]);
}

export function ErrorBoundary() {
  const rootData = useRouteLoaderData<typeof loader>("root");
  return (
    <>
      <SiteHeader user={rootData?.user ?? null} unread={rootData?.unread ?? null} />
      <main id="main" className="main">
        <ErrorPage />
      </main>
    </>
  );
}
