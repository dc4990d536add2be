import type { MetaFunction } from "@remix-run/cloudflare";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PAGE_META } from "~/lib/customer-copy";

// Unknown URLs get a real 404 status, rendered by the error boundary.
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export const meta: MetaFunction = () => [
  { title: PAGE_META.notFound.title },
  { name: "description", content: PAGE_META.notFound.description },
];

export default function NotFound() {
  return <GeneralErrorBoundary />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
