import { isRouteErrorResponse, Link, useNavigate, useRouteError } from "@remix-run/react";
import { MESSAGES } from "~/lib/constants";

/** One place that turns a thrown status into a page a customer understands. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const navigate = useNavigate();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <main className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
        <p className="text-6xl font-bold text-brand-600">404</p>
        <h1 className="mt-4 text-3xl font-bold text-gray-900">{MESSAGES.notFound}</h1>
        <p className="mt-2 text-gray-600">The page you are looking for does not exist or has moved.</p>
        <div className="mt-8 flex gap-3">
          <button type="button" onClick={() => navigate(-1)} className="rounded-md border border-gray-300 px-4 py-2 font-medium text-gray-700 hover:bg-gray-50">
            Go Back
          </button>
          <Link to="/" className="rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700">
            Home
          </Link>
        </div>
      </main>
    );
  }
  const message = isRouteErrorResponse(error)
    ? `${error.status}: ${typeof error.data === "string" ? error.data : error.statusText}`
    : "Something went wrong. Please try again.";
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold text-gray-900">Something went wrong</h1>
      <p className="mt-2 text-gray-600">{message}</p>
      <Link to="/" className="mt-8 inline-block rounded-md bg-brand-600 px-4 py-2 font-medium text-white">
        Back to Home
      </Link>
    </main>
  );
}
