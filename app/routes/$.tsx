import { GeneralErrorBoundary } from "~/components/error-boundary";

// Unknown URLs get a real 404 status, rendered by the error boundary.
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return <GeneralErrorBoundary />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
