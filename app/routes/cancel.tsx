/**
 * /cancel (docs/product.md §5.6): the buyer left the payment page. Nothing was charged. With a
 * pending order saved, Retry Payment opens that order's checkout again (or, failing that, the
 * create-book form restored from it); Back to Home forgets it and starts a new browser session.
 */
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useState } from "react";
import { buttonStyles } from "~/components/button-styles";
import { PaymentPending } from "~/components/payment-pending";
import { Spinner } from "~/components/spinner";
import { retryPayment } from "~/lib/api-client";
import { startNewBrowserSession } from "~/lib/browser-session";
import { CREATE_BOOK_LABELS, SHOP_NAME } from "~/lib/customer-copy";
import { SUCCESS_PENDING_MS } from "~/lib/shop-rules";
import { clearPendingOrder, loadPendingOrder, type PendingOrder } from "~/lib/pending-order";

export const meta: MetaFunction = () => [{ title: `Payment cancelled – ${SHOP_NAME}` }, { name: "robots", content: "noindex" }];

export default function Cancel() {
  const navigate = useNavigate();
  const [pending, setPending] = useState(true);
  const [saved, setSaved] = useState<PendingOrder | null>(null);
  const [retrying, setRetrying] = useState(false);

  useEffect(() => {
    setSaved(loadPendingOrder());
    const timer = setTimeout(() => setPending(false), SUCCESS_PENDING_MS);
    return () => clearTimeout(timer);
  }, []);

  async function retry(order: PendingOrder) {
    setRetrying(true);
    try {
      const { url } = await retryPayment({
        sessionId: order.sessionId,
        bookType: order.bookType,
        title: order.title,
        filesCount: order.filesCount,
        quantity: order.quantity,
        ...(order.checkoutId ? { checkoutId: order.checkoutId } : {}),
      });
      window.location.assign(url);
    } catch (error) {
      // docs/product.md §5.6: logged, and the visitor gets the form back with the saved details.
      console.error("retry-payment failed", error);
      navigate("/create-book?retry=true");
    }
  }

  function backToHome() {
    clearPendingOrder();
    startNewBrowserSession({ alsoCookie: true });
    navigate("/");
  }

  return (
    <main className="bg-gray-50 px-4 py-12 sm:py-16">
      {pending ? (
        <PaymentPending label="Checking your payment…" />
      ) : (
        <section aria-labelledby="cancel-heading" className="mx-auto max-w-lg rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-gray-200 sm:p-10">
          <span className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-amber-100 text-3xl text-amber-700" aria-hidden="true">
            ×
          </span>
          <h1 id="cancel-heading" className="mt-4 text-3xl font-bold text-gray-900">
            {CREATE_BOOK_LABELS.paymentCancelled}
          </h1>
          <p className="mt-2 text-gray-600">{CREATE_BOOK_LABELS.noCharges}</p>
          {saved ? (
            <p className="mt-4 rounded-lg bg-gray-50 p-3 text-sm text-gray-700">
              Your order “{saved.title}” ({saved.filesCount} photos, {saved.quantity} {saved.quantity === 1 ? "copy" : "copies"}) is saved. You
              can pay for it now.
            </p>
          ) : null}
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <button type="button" onClick={backToHome} className={buttonStyles.secondary}>
              {CREATE_BOOK_LABELS.backToHome}
            </button>
            {saved ? (
              <button type="button" onClick={() => retry(saved)} disabled={retrying} className={buttonStyles.primary}>
                {retrying ? <Spinner className="h-4 w-4" /> : null}
                {CREATE_BOOK_LABELS.retryPayment}
              </button>
            ) : (
              <Link to="/create-book" className={buttonStyles.primary}>
                {CREATE_BOOK_LABELS.tryAgain}
              </Link>
            )}
          </div>
        </section>
      )}
    </main>
  );
}
