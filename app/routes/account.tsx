import type { MetaFunction } from "@remix-run/node";
import { NavLink, Outlet } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { signedInPage } from "~/lib/auth.server";

export const meta: MetaFunction = () => [{ title: "Your account · Teamboard" }];

export const loader = signedInPage;

const SECTIONS = [
  { to: "/account", label: "Profile", end: true },
  { to: "/account/email", label: "Email" },
  { to: "/account/password", label: "Password" },
  { to: "/account/security", label: "Two-factor sign-in" },
  { to: "/account/calendar", label: "Calendar feed" },
  { to: "/account/notifications", label: "Notification emails" },
  { to: "/account/sessions", label: "Sessions" },
  { to: "/account/delete", label: "Delete account" },
];

export default function AccountLayout() {
  return (
    <div className="account">
      <nav className="account-nav" aria-label="Account">
        <ul>
          {SECTIONS.map((section) => (
            <li key={section.to}>
              <NavLink to={section.to} end={section.end}>
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div>
        <Outlet />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
