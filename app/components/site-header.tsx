import { Form, Link, NavLink, useSubmit } from "@remix-run/react";
import type { MouseEvent } from "react";
import { signOutInBrowser } from "~/lib/browser-auth";

export interface HeaderUser {
  email: string;
  displayName: string | null;
}

export function SiteHeader({ user }: { user: HeaderUser | null }) {
  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Link to="/" className="brand" aria-label="Teamboard home">
        <img src="/favicon.svg" alt="" width={24} height={24} />
        <span>Teamboard</span>
      </Link>
      <nav aria-label="Main">
        {user ? (
          <ul>
            <li>
              <NavLink to="/teams">Teams</NavLink>
            </li>
            <li>
              <Form method="get" action="/search" role="search" className="header-search">
                <input name="q" type="search" aria-label="Search tasks" placeholder="Search tasks" maxLength={200} />
              </Form>
            </li>
            <li>
              <NavLink to="/account">{user.displayName || user.email}</NavLink>
            </li>
            <li>
              <LogoutButton />
            </li>
          </ul>
        ) : (
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
        )}
      </nav>
    </header>
  );
}

/**
 * A plain POST to /logout. With JavaScript, the browser client signs out
 * first so every other open tab hears SIGNED_OUT at once; the POST then only
 * clears what is left and redirects.
 */
export function LogoutButton({ scope, label = "Log out", className = "link-button" }: { scope?: "global"; label?: string; className?: string }) {
  const submit = useSubmit();
  async function onClick(event: MouseEvent<HTMLButtonElement>) {
    const form = event.currentTarget.form;
    if (!form) return;
    event.preventDefault();
    // On success the SIGNED_OUT listener in root.tsx takes this tab to /login.
    if (await signOutInBrowser(scope ?? "local")) return;
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
