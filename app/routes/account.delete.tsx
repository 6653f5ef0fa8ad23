import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { ErrorPage } from "~/components/error-page";
import { requireUser } from "~/lib/auth.server";
import { createServerClient } from "~/lib/supabase.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const client = createServerClient({ request, context });
  await requireUser(client, request);
  return data(null, { headers: client.headers });
}

export default function DeleteAccount() {
  return (
    <section className="card" aria-labelledby="delete-title">
      <h1 id="delete-title">Delete account</h1>
      <p>Deleting your account from here is coming soon. Until then, write to your team's owner or to support, and we'll do it for you.</p>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
