import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { MESSAGES, STOREFRONT_LABELS } from "~/lib/customer-copy";
import { useGoBack } from "~/lib/go-back";
import { buttonStyles } from "./button-styles";
import { ArrowLeftIcon } from "./icons";

/** One place that turns a thrown status into a page a customer understands. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const goBack = useGoBack();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <main className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
        <p className="text-6xl font-bold text-brand-600">404</p>
        <h1 className="mt-4 text-3xl font-bold text-gray-900">{MESSAGES.notFound}</h1>
        <p className="mt-2 text-gray-600">The page you are looking for does not exist or has moved.</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <button type="button" onClick={goBack} className={buttonStyles.secondary}>
            <ArrowLeftIcon className="h-4 w-4" />
            {STOREFRONT_LABELS.goBack}
          </button>
          <Link to="/" className={buttonStyles.primary}>
            {STOREFRONT_LABELS.home}
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
      <Link to="/" className={`${buttonStyles.primary} mt-8`}>
        {STOREFRONT_LABELS.backToHome}
      </Link>
    </main>
  );
}
