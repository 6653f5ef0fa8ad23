import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { requireUser } from "~/lib/auth.server";
import { createServerClient } from "~/lib/supabase.server";

export const meta: MetaFunction = () => [{ title: "Your teams · Teamboard" }];

/** A placeholder until the teams screens land; it already requires a signed-in person. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const client = createServerClient({ request, context });
  const user = await requireUser(client, request);
  return data({ name: user.displayName || user.email }, { headers: client.headers });
}

export default function Teams() {
  const { name } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="teams-title">
      <h1 id="teams-title">Your teams</h1>
      <p>Welcome, {name}. Your teams will be listed here.</p>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
