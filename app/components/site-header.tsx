import { Form, Link, NavLink, useSubmit } from "@remix-run/react";
import type { MouseEvent } from "react";
import { Avatar } from "~/components/avatar";
import { Fold } from "~/components/fold";
import { NotificationBell } from "~/components/notification-bell";
import { signOutInBrowser } from "~/lib/browser-auth";

export interface HeaderUser {
  id: string;
  email: string;
  displayName: string | null;
  avatarPath?: string | null;
}

/**
 * `halfway`: signed in with a password but the second factor not entered yet
 * (/login/mfa): only the way out, not the pages the code opens.
 */
export function SiteHeader({
  user,
  unread = null,
  halfway = false,
}: {
  user: HeaderUser | null;
  unread?: number | null;
  halfway?: boolean;
}) {
  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Link to="/" className="brand" aria-label="Teamboard home">
        <img src="/favicon.svg" alt="" width={24} height={24} />
        <span>Teamboard</span>
      </Link>
      {user && !halfway ? <NotificationBell unread={unread} userId={user.id} /> : null}
      {user && halfway ? (
        <nav aria-label="Main">
          <ul>
            <li>
              <LogoutButton />
            </li>
          </ul>
        </nav>
      ) : user ? (
        <Fold className="site-menu" summary={<MenuLabel />}>
          <nav aria-label="Main">
            <ul>
              <li>
                <NavLink to="/teams">Teams</NavLink>
              </li>
              <li>
                <NavLink to="/calendar">Calendar</NavLink>
              </li>
              <li>
                <NavLink to="/my-work">My work</NavLink>
              </li>
              <li className="site-menu-search">
                <Form method="get" action="/search" role="search" aria-label="Site" className="header-search">
                  <input
                    name="q"
                    type="search"
                    aria-label="Search tasks"
                    placeholder="Search tasks"
                    data-shortcut="/"
                    maxLength={200}
                    enterKeyHint="search"
                    autoComplete="off"
                  />
                </Form>
              </li>
              <li>
                <NavLink to="/account" className="with-avatar site-menu-account">
                  <Avatar path={user.avatarPath} name={user.displayName || user.email} size={24} />
                  <span className="site-menu-account-name">{user.displayName || user.email}</span>
                </NavLink>
              </li>
              <li>
                <LogoutButton />
              </li>
            </ul>
          </nav>
        </Fold>
      ) : (
        <nav aria-label="Main">
          <ul>
            <li>
              <NavLink to="/login">Log in</NavLink>
            </li>
            <li>
              <Link to="/signup" className="button button-small">
                Sign up
              </Link>
            </li>
          </ul>
        </nav>
      )}
    </header>
  );
}

/** Three bars and a word: the menu's button on narrow screens. */
function MenuLabel() {
  return (
    <>
      <svg className="menu-icon" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
        <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      Menu
    </>
  );
}

/**
 * A plain POST to /logout. With JavaScript, the browser client signs out
 * first so every other open tab hears SIGNED_OUT at once; the POST then only
 * clears what is left and redirects.
 */
export function LogoutButton({
  scope,
  label = "Log out",
  className = "link-button",
}: {
  scope?: "global";
  label?: string;
  className?: string;
}) {
  const submit = useSubmit();
  async function onClick(event: MouseEvent<HTMLButtonElement>) {
    const form = event.currentTarget.form;
    if (!form) return;
    event.preventDefault();
    // The browser client signs out first (other tabs hear it); the post then
    // clears what is left on the server and lands on /login saying "You're
    // logged out." (it takes over from the SIGNED_OUT listener's navigation,
    // which alone arrived without a word).
    await signOutInBrowser(scope ?? "local");
    submit(form);
  }
  return (
    <Form method="post" action="/logout" className="inline-form">
      {scope ? <input type="hidden" name="scope" value={scope} /> : null}
      <button type="submit" className={className} onClick={onClick}>
        {label}
      </button>
    </Form>
  );
}
