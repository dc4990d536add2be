/**
 * /create-book (docs/product.md §5.4): choose a plan, add photos, title and message, agree to
 * the terms, buy. The purchase itself is app/lib/purchase-flow.ts; prices come from pricing.ts;
 * the form's rules are createBookFormSchema, the same schema the server checks.
 */
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useSearchParams } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { buttonStyles } from "~/components/button-styles";
import { PhotoList, type ChosenPhoto } from "~/components/create-book/photo-list";
import { PlanModal } from "~/components/create-book/plan-modal";
import { PurchaseSummary } from "~/components/create-book/purchase-summary";
import { AlertIcon, CheckIcon, LockIcon } from "~/components/icons";
import { ProgressBar } from "~/components/progress-bar";
import { Spinner } from "~/components/spinner";
import { StockPhotoPicker } from "~/components/stock-photos";
import { useToast } from "~/components/toast";
import { BOOK_TYPES, type BookType } from "~/core/catalog";
import { CREATE_BOOK_LABELS, CREATE_BOOK_MESSAGES, SHOP_NAME } from "~/lib/customer-copy";
import { MAX_CUSTOM_MESSAGE_LENGTH, MAX_TITLE_LENGTH, PLANS } from "~/lib/shop-rules";
import { formatMoney } from "~/lib/format";
import { loadPendingOrder } from "~/lib/pending-order";
import { selectNewPhotos } from "~/lib/photo-selection";
import { photoRangeProblem } from "~/lib/pricing";
import { PurchaseAborted, purchaseBook } from "~/lib/purchase-flow";
import { createBookFormSchema } from "~/lib/schemas";

export const meta: MetaFunction = () => [
  { title: `Create your coloring book – ${SHOP_NAME}` },
  {
    name: "description",
    content: "Upload 5 to 50 photos, add a title and a dedication, and order your printed, personalised coloring book.",
  },
];

const isBookType = (value: string | null): value is BookType => BOOK_TYPES.includes(value as BookType);

export default function CreateBook() {
  const [searchParams] = useSearchParams();
  const toast = useToast();
  const typeFromQuery = searchParams.get("type");
  const restoring = searchParams.get("retry") === "true";

  const [plan, setPlan] = useState<BookType>(isBookType(typeFromQuery) ? typeFromQuery : "standard");
  // The plan question comes up on first load unless the link already chose (docs/product.md §5.4: type overrides).
  const [askPlan, setAskPlan] = useState(!isBookType(typeFromQuery) && !restoring);
  const [photos, setPhotos] = useState<ChosenPhoto[]>([]);
  const [title, setTitle] = useState("");
  const [customMessage, setCustomMessage] = useState("");
  const [quantity, setQuantity] = useState(1);
  const [agreeToTerms, setAgreeToTerms] = useState(false);
  const [newsletterSignup, setNewsletterSignup] = useState(false);
  const [uploadProgress, setUploadProgress] = useState<number | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  const nextPhotoId = useRef(1);
  const busy = uploadProgress !== null || redirecting;

  // /create-book?retry=true: the details of the order that could not be paid come back.
  useEffect(() => {
    if (!restoring) return;
    const pending = loadPendingOrder();
    if (!pending) return;
    setTitle(pending.title);
    setCustomMessage(pending.customMessage);
    setQuantity(pending.quantity);
    setPlan(isBookType(typeFromQuery) ? typeFromQuery : pending.bookType);
    setNewsletterSignup(pending.newsletterSignup);
    toast({ title: CREATE_BOOK_MESSAGES.orderRestoredTitle, description: CREATE_BOOK_MESSAGES.orderRestored });
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const addPhotos = useCallback(
    // `announce: false` for the stock picker, which says 'Stock photo added!' itself.
    (files: File[], { announce = true } = {}) => {
      const { accepted, problems } = selectNewPhotos(photos.length, files);
      if (accepted.length > 0) {
        setPhotos((current) => [...current, ...accepted.map((file) => ({ id: String(nextPhotoId.current++), file }))]);
      }
      // One toast at a time (docs/product.md §5): a skipped file matters more than the count.
      const [problem] = problems;
      if (problem) toast({ ...problem, variant: "destructive" });
      else if (accepted.length > 0 && announce) {
        toast({
          title: CREATE_BOOK_MESSAGES.filesAddedTitle,
          description: CREATE_BOOK_MESSAGES.filesAdded(accepted.length, photos.length + accepted.length),
        });
      }
    },
    [photos.length, toast],
  );

  const form = { bookType: plan, title, customMessage, quantity, newsletterSignup, agreeToTerms };
  const parsed = createBookFormSchema.safeParse(form);
  const rangeProblem = photoRangeProblem(plan, photos.length);
  // The schema is the rule (the server checks the same); the checklist shows it field by field.
  const fieldOk = (field: keyof typeof form) => parsed.success || !parsed.error.issues.some((issue) => issue.path[0] === field);
  const titleOk = fieldOk("title");
  const canPurchase = !rangeProblem && parsed.success && !busy;
  const details = PLANS[plan];
  const requiredRange = `${details.minPhotos}-${details.maxPhotos}`;

  async function purchase() {
    // The button is disabled until all of this holds; a keyboard submit still gets told why.
    if (rangeProblem) return toast({ ...rangeProblem, variant: "destructive" });
    if (!titleOk) return toast({ title: CREATE_BOOK_MESSAGES.missingTitleTitle, description: CREATE_BOOK_MESSAGES.missingTitle, variant: "destructive" });
    if (!agreeToTerms) {
      return toast({ title: CREATE_BOOK_MESSAGES.agreementRequiredTitle, description: CREATE_BOOK_MESSAGES.agreementRequired, variant: "destructive" });
    }
    if (!parsed.success) return toast({ title: CREATE_BOOK_MESSAGES.checkoutErrorTitle, description: parsed.error.issues[0].message, variant: "destructive" });
    try {
      await purchaseBook(parsed.data, photos.map((photo) => photo.file), {
        onProgress: setUploadProgress,
        toast,
        redirect: (url) => {
          setRedirecting(true);
          window.location.assign(url);
        },
      });
    } catch (error) {
      console.error("purchase stopped", error);
      toast(
        error instanceof PurchaseAborted
          ? error.toast
          : { title: CREATE_BOOK_MESSAGES.uploadFailedTitle, description: CREATE_BOOK_MESSAGES.uploadFailed, variant: "destructive" },
      );
    } finally {
      setUploadProgress(null);
    }
  }

  const requirements = [
    { met: !rangeProblem, label: `${requiredRange} photos for the ${plan} book (${photos.length} added)` },
    { met: titleOk, label: "A title for your book" },
    { met: agreeToTerms, label: "Agreement to the Terms and Conditions" },
  ];

  return (
    <>
      {askPlan ? (
        <PlanModal
          onChoose={(chosen) => {
            setPlan(chosen);
            setAskPlan(false);
          }}
          onClose={() => setAskPlan(false)}
        />
      ) : null}
      <main className="mx-auto max-w-6xl px-4 py-8 sm:py-10">
        <div
          role="note"
          className="mb-6 rounded-xl bg-gradient-to-r from-brand-600 to-brand-500 px-4 py-3 text-sm font-medium text-white shadow-sm"
        >
          Limited-time offer: {PLANS.standard.name} {formatMoney(PLANS.standard.price)} (was {formatMoney(PLANS.standard.oldPrice)}),{" "}
          {PLANS.premium.name} {formatMoney(PLANS.premium.price)} (was {formatMoney(PLANS.premium.oldPrice)}). Free delivery.
        </div>
        <h1 className="text-3xl font-bold tracking-tight text-gray-900">{CREATE_BOOK_LABELS.pageTitle}</h1>
        <p className="mt-2 max-w-2xl text-gray-600">
          Every photo becomes a black-and-white coloring page. We add a title page and your dedication, print the book and post it
          to you.
        </p>

        {/* minmax(0, 1fr), not auto: the column is as wide as the screen, so the stock photo strip scrolls inside it on a phone instead of widening the page. */}
        <div className="mt-8 grid grid-cols-1 gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <div className="space-y-6">
            <PhotoList
              photos={photos}
              onAdd={addPhotos}
              onRemove={(id) => setPhotos((current) => current.filter((photo) => photo.id !== id))}
              onClear={() => setPhotos([])}
              disabled={busy}
              requiredRange={requiredRange}
            />
            <StockPhotoPicker onAdd={(file) => addPhotos([file], { announce: false })} disabled={busy} />

            <section aria-labelledby="details-heading" className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm sm:p-6">
              <h2 id="details-heading" className="text-lg font-semibold text-gray-900">
                Your book
              </h2>
              <div className="mt-4 space-y-4">
                <div>
                  <label htmlFor="book-title" className="mb-1 block text-sm font-medium text-gray-800">
                    Book title
                  </label>
                  <input
                    id="book-title"
                    value={title}
                    maxLength={MAX_TITLE_LENGTH}
                    onChange={(event) => setTitle(event.target.value)}
                    disabled={busy}
                    placeholder="Our Summer Adventures"
                    className="block w-full rounded-lg border border-gray-300 px-3 py-2 shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100"
                  />
                </div>
                <div>
                  <label htmlFor="custom-message" className="mb-1 block text-sm font-medium text-gray-800">
                    Custom message <span className="font-normal text-gray-500">(optional, printed on the dedication page)</span>
                  </label>
                  <textarea
                    id="custom-message"
                    value={customMessage}
                    maxLength={MAX_CUSTOM_MESSAGE_LENGTH}
                    onChange={(event) => setCustomMessage(event.target.value)}
                    disabled={busy}
                    rows={4}
                    aria-describedby="custom-message-count"
                    placeholder="For Grandma, with love from all of us."
                    className="block w-full rounded-lg border border-gray-300 px-3 py-2 shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100"
                  />
                  <p id="custom-message-count" className="mt-1 text-right text-xs text-gray-500">
                    {customMessage.length}/{MAX_CUSTOM_MESSAGE_LENGTH}
                  </p>
                </div>
              </div>
            </section>
          </div>

          <aside className="space-y-4 lg:sticky lg:top-6 lg:self-start">
            <PurchaseSummary
              plan={plan}
              photoCount={photos.length}
              quantity={quantity}
              onQuantity={setQuantity}
              onSwitchPlan={() => setPlan(plan === "standard" ? "premium" : "standard")}
              disabled={busy}
            />
            <section aria-label="Checkout" className="space-y-4 rounded-xl border border-gray-200 bg-white p-5 shadow-sm">
              <label className="flex items-start gap-2 text-sm text-gray-700">
                <input
                  type="checkbox"
                  checked={agreeToTerms}
                  onChange={(event) => setAgreeToTerms(event.target.checked)}
                  disabled={busy}
                  className="mt-0.5 h-4 w-4 accent-brand-600"
                />
                <span>
                  I agree to the{" "}
                  <Link to="/terms" target="_blank" className="font-medium text-brand-700 underline">
                    Terms and Conditions
                  </Link>
                </span>
              </label>
              <label className="flex items-start gap-2 text-sm text-gray-700">
                <input
                  type="checkbox"
                  checked={newsletterSignup}
                  onChange={(event) => setNewsletterSignup(event.target.checked)}
                  disabled={busy}
                  className="mt-0.5 h-4 w-4 accent-brand-600"
                />
                <span>Send me ideas and offers by email (optional)</span>
              </label>

              <ul aria-label="Before you buy" className="space-y-1.5 text-sm">
                {requirements.map((requirement) => (
                  <li key={requirement.label} className={`flex items-center gap-2 ${requirement.met ? "text-green-700" : "text-gray-500"}`}>
                    {requirement.met ? <CheckIcon className="h-4 w-4" /> : <AlertIcon className="h-4 w-4" />}
                    <span>
                      {requirement.label}
                      <span className="sr-only">{requirement.met ? " (done)" : " (still needed)"}</span>
                    </span>
                  </li>
                ))}
              </ul>

              {uploadProgress !== null ? <ProgressBar value={uploadProgress} label="Uploading your photos" /> : null}

              <button type="button" onClick={purchase} disabled={!canPurchase} className={`${buttonStyles.primary} w-full py-3 text-base`}>
                {busy ? <Spinner className="h-4 w-4" /> : null}
                {CREATE_BOOK_LABELS.purchase}
              </button>
              <p className="flex items-start gap-2 text-xs text-gray-500">
                <LockIcon className="h-4 w-4 shrink-0" />
                Secure payment on the next page. Your photos stay private: only you can see them, and we delete them a year after
                your order.
              </p>
            </section>
          </aside>
        </div>
      </main>
    </>
  );
}
