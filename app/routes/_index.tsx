import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { getUser } from "~/lib/auth.server";
import { redirect } from "~/lib/http.server";

export const meta: MetaFunction = () => [{ title: "Teamboard — a small team task tracker" }];

export async function loader() {
  if (await getUser()) throw redirect("/teams");
  return null;
}

export default function Index() {
  return (
    <>
      <section className="hero">
        <h1>Your team's work, on one board</h1>
        <p>
          Teamboard is a small task tracker for teams: split work into projects, move tasks across a board, discuss
          them, and see teammates' changes as they happen.
        </p>
        <div className="form-actions">
          <Link to="/signup" className="button">
            Sign up free
          </Link>
          <Link to="/login" className="button button-secondary">
            Log in
          </Link>
        </div>
      </section>
      <ul className="features" aria-label="What you can do">
        <li>
          <h2>Teams and roles</h2>
          <p>
            Invite people by email as admins, members, viewers or guests (who see only the projects chosen for them).
          </p>
        </li>
        <li>
          <h2>Projects and boards</h2>
          <p>Backlog, to do, in progress, done: move tasks as work moves.</p>
        </li>
        <li>
          <h2>Live updates</h2>
          <p>Comments, attachments and moves appear for everyone at once.</p>
        </li>
      </ul>
    </>
  );
}
