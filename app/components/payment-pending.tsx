import { Spinner } from "./spinner";

/**
 * docs/product.md §5.5: the success and cancel pages show a short animated pending state first. Its
 * label is the page's h1 meanwhile (the server renders this state), so the page always has one.
 */
export function PaymentPending({ label }: { label: string }) {
  return (
    <div role="status" className="mx-auto flex max-w-md flex-col items-center rounded-2xl bg-white p-10 text-center shadow-sm ring-1 ring-gray-200">
      <Spinner className="h-10 w-10 text-brand-600" />
      <h1 className="mt-4 text-lg font-medium text-gray-900">{label}</h1>
    </div>
  );
}

