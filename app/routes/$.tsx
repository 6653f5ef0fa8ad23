import type { MetaFunction } from "@remix-run/node";
import { ErrorPage } from "~/components/error-page";
import { notFound } from "~/lib/http.server";

export const meta: MetaFunction = () => [{ title: "Page not found · Teamboard" }];

/** Every URL no other route matches. */
export function loader() {
  throw notFound();
}

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
