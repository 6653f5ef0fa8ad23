import type { MetaFunction } from "@remix-run/node";
import { NavLink, Outlet, useActionData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { signedInPage } from "~/lib/auth.server";
import { keepingTheForm } from "~/lib/http.server";
import { submitProfile } from "~/lib/profile-form.server";

export const meta: MetaFunction = () => [{ title: "Your account · Teamboard" }];

export const loader = signedInPage;

/** The profile form's post: here, so its address is `/account`, not `/account?index` (lib/profile-form.server.ts). */
export const action = keepingTheForm(submitProfile);
export type ProfileAnswer = ReturnType<typeof useActionData<typeof action>>;

const SECTIONS = [
  { to: "/account", label: "Profile", end: true },
  { to: "/account/email", label: "Email" },
  { to: "/account/password", label: "Password" },
  { to: "/account/security", label: "Two-factor sign-in" },
  { to: "/account/tokens", label: "API tokens" },
  { to: "/account/calendar", label: "Calendar feed" },
  { to: "/account/notifications", label: "Notification emails" },
  { to: "/account/sessions", label: "Sessions" },
  { to: "/account/delete", label: "Delete account" },
];

export default function AccountLayout() {
  const profileAnswer: ProfileAnswer = useActionData<typeof action>();
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
        <Outlet context={profileAnswer} />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
