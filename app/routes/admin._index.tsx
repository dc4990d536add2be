/**
 * /admin: the shop's orders desk (docs/product.md §5.16, decision 015). Paid orders with their status, delivery
 * address and print PDF, the moves of fulfilment, payments to review and refund (decision 018), and
 * the outbox of order emails. Only an admin
 * reaches it (app/server/admin/admin-access.server.ts); the rules are app/server/admin/admin-orders.server.ts.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { withZod } from "@remix-validated-form/with-zod";
import { useEffect } from "react";
import { ValidatedForm, useField, useIsSubmitting, validationError } from "remix-validated-form";
import { EmailStatusBadge } from "~/components/admin-email-status";
import { buttonStyles } from "~/components/button-styles";
import { useToast } from "~/components/toast";
import { deskActionSchema, shipOrderSchema } from "~/lib/admin-schemas";
import { ADMIN_ORDER_STATUS_LABELS, ADMIN_PAYMENT_PROBLEM_LABELS, ADMIN_TEXT, PRINT_PARTNER_LABELS, SHOP_NAME } from "~/lib/customer-copy";
import { MAX_TRACKING_NUMBER_LENGTH } from "~/lib/shop-rules";
import { formatMoney } from "~/lib/format";
import { localSignInAvailable, requireAdmin } from "~/server/admin/admin-access.server";
import { applyDeskAction, listDeskOrders, listOutbox, type DeskOrder, type DeskStatus, type OutboxEntry } from "~/server/admin/admin-orders.server";
import { database } from "~/core/db/database.server";
import { readFormFields } from "~/server/http/http.server";
import { listPaymentProblems, type DeskPaymentProblem } from "~/server/payments/payment-problems.server";
import { printPartnerFor } from "~/server/printing/printing.server";

export const meta: MetaFunction = () => [{ title: `${ADMIN_TEXT.title} – ${SHOP_NAME}` }, { name: "robots", content: "noindex" }];

const shipValidator = withZod(shipOrderSchema);

function pageNumber(url: URL): number {
  const page = Number(url.searchParams.get("page") ?? "1");
  return Number.isSafeInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const db = database(env.DB);
  const page = pageNumber(new URL(request.url));
  const [{ orders, hasOlder }, outbox, paymentProblems] = await Promise.all([listDeskOrders(db, page), listOutbox(db), listPaymentProblems(db)]);
  return json(
    { orders, hasOlder, page, outbox, paymentProblems, canSignOut: localSignInAvailable(env), testPrinter: printPartnerFor(env, db)?.name === "local-test" },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  const admin = await requireAdmin(request, env);
  const fields = await readFormFields(request);
  if (fields.intent === "ship") {
    // The shared schema, so the form shows its field messages under the tracking number.
    const result = await shipValidator.validate(fields);
    if (result.error) return validationError(result.error);
  }
  const parsed = deskActionSchema.safeParse(fields);
  if (!parsed.success) return json({ ok: false, message: parsed.error.issues[0]?.message ?? ADMIN_TEXT.unknownAction }, { status: 400 });
  const result = await applyDeskAction(env, database(env.DB), parsed.data);
  console.log(`orders desk: ${admin.name} ${parsed.data.intent} ${parsed.data.orderNumber}: ${result.message}`);
  return json(result, { status: result.ok ? 200 : 409 });
}

export default function OrdersDesk() {
  const { orders, hasOlder, page, outbox, paymentProblems, canSignOut, testPrinter } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const toast = useToast();
  useEffect(() => {
    if (answer && "ok" in answer) toast({ title: answer.message, variant: answer.ok ? "default" : "destructive" });
  }, [answer, toast]);

  return (
    <main className="mx-auto max-w-6xl px-4 py-8 sm:py-10">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-gray-900">{ADMIN_TEXT.title}</h1>
          <p className="mt-2 max-w-2xl text-gray-600">{ADMIN_TEXT.intro}</p>
        </div>
        <div className="flex flex-wrap gap-2">
        {testPrinter ? (
          <Link to="/admin/test-printer" className={buttonStyles.secondary}>
            {ADMIN_TEXT.testPrinterLink}
          </Link>
        ) : null}
        {canSignOut ? (
          <Form method="post" action="/admin/sign-in">
            <button type="submit" name="intent" value="sign-out" className={buttonStyles.secondary}>
              {ADMIN_TEXT.signOut}
            </button>
          </Form>
        ) : null}
        </div>
      </div>
      <p role="note" className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
        {ADMIN_TEXT.refundNote}
      </p>

      {paymentProblems.length > 0 ? <PaymentsToReview problems={paymentProblems} /> : null}

      <section aria-labelledby="orders-heading" className="mt-8">
        <h2 id="orders-heading" className="sr-only">
          Orders
        </h2>
        {orders.length === 0 ? (
          <p className="rounded-2xl bg-white p-6 text-gray-600 ring-1 ring-gray-200">{ADMIN_TEXT.noOrders}</p>
        ) : (
          <ul className="space-y-4">
            {orders.map((order) => (
              <li key={order.orderNumber}>
                <OrderCard order={order} />
              </li>
            ))}
          </ul>
        )}
        {page > 1 || hasOlder ? (
          <nav aria-label="Order pages" className="mt-6 flex justify-between gap-3">
            {page > 1 ? (
              <Link to={`?page=${page - 1}`} className={buttonStyles.secondary}>
                Newer orders
              </Link>
            ) : (
              <span />
            )}
            {hasOlder ? (
              <Link to={`?page=${page + 1}`} className={buttonStyles.secondary}>
                Older orders
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>

      <Outbox emails={outbox} />
    </main>
  );
}

const STATUS_STYLES: Record<DeskStatus, string> = {
  paid: "bg-gray-100 text-gray-800",
  "pdf-ready": "bg-brand-50 text-brand-700",
  "sending-to-print": "bg-amber-50 text-amber-900",
  "sent-to-print": "bg-amber-100 text-amber-900",
  "in-production": "bg-amber-100 text-amber-900",
  "print-rejected": "bg-red-100 text-red-800",
  "print-cancelled": "bg-red-100 text-red-800",
  "needs-attention": "bg-red-100 text-red-800",
  shipped: "bg-green-100 text-green-800",
  refunded: "bg-red-100 text-red-800",
};

function formatDateTime(value: string | null): string {
  if (!value) return "";
  return new Date(value).toLocaleString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
  });
}

function OrderCard({ order }: { order: DeskOrder }) {
  const headingId = `order-${order.orderNumber}`;
  const customer = order.customer;
  return (
    <article aria-labelledby={headingId} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-gray-200">
      <div className="grid gap-5 lg:grid-cols-[1.3fr_1fr_1.4fr]">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={headingId} className="font-mono text-sm font-semibold text-gray-900">
              <span className="sr-only">Order </span>
              {order.orderNumber}
            </h3>
            <span data-testid="desk-status" className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_STYLES[order.status]}`}>
              {ADMIN_ORDER_STATUS_LABELS[order.status]}
            </span>
          </div>
          <p className="mt-2 break-words text-lg font-semibold text-gray-900">“{order.bookTitle}”</p>
          <p className="mt-1 text-sm text-gray-600">
            {order.pages} pages · {order.quantity} {order.quantity === 1 ? "copy" : "copies"} ·{" "}
            <span className="font-medium text-gray-900">{formatMoney(order.total, order.currency)}</span>
          </p>
          <dl className="mt-2 space-y-0.5 text-xs text-gray-500">
            <div>
              <dt className="inline">Paid: </dt>
              <dd className="inline">{formatDateTime(order.paidAt)} UTC</dd>
            </div>
            {order.sentToPrintAt ? (
              <div>
                <dt className="inline">Sent to print: </dt>
                <dd className="inline">{formatDateTime(order.sentToPrintAt)} UTC</dd>
              </div>
            ) : null}
            {order.shippedAt ? (
              <div>
                <dt className="inline">Shipped: </dt>
                <dd className="inline">{formatDateTime(order.shippedAt)} UTC</dd>
              </div>
            ) : null}
            {order.refundedAt ? (
              <div>
                <dt className="inline">Refunded: </dt>
                <dd className="inline">{formatDateTime(order.refundedAt)} UTC</dd>
              </div>
            ) : null}
          </dl>
        </div>

        <div className="min-w-0 text-sm">
          <h4 className="font-medium text-gray-900">Deliver to</h4>
          {customer ? (
            <address className="mt-1 break-words not-italic text-gray-700">
              {customer.firstName} {customer.lastName}
              <br />
              {customer.address1}
              {customer.address2 ? (
                <>
                  <br />
                  {customer.address2}
                </>
              ) : null}
              <br />
              {customer.city} {customer.zipCode}
              <br />
              {customer.country}
              <br />
              <span className="text-gray-500">{customer.email}</span>
            </address>
          ) : (
            <p className="mt-1 text-gray-500">No address recorded.</p>
          )}
        </div>

        <div className="min-w-0 space-y-3">
          <div className="flex flex-wrap items-center gap-2">
            {order.pdfReady ? (
              <a
                href={`/admin/orders/${order.orderNumber}/pdf`}
                target="_blank"
                rel="noreferrer"
                className={`${buttonStyles.secondary} px-3 py-1.5`}
              >
                Print PDF<span className="sr-only"> of {order.orderNumber}</span>
              </a>
            ) : order.filesDeletedAt ? (
              <span className="text-sm text-gray-500">{ADMIN_TEXT.filesDeleted(`${formatDateTime(order.filesDeletedAt)} UTC`)}</span>
            ) : (
              <span className="text-sm text-gray-500">{ADMIN_TEXT.pdfPending}</span>
            )}
            {order.can.sendToPrint ? <SimpleAction order={order} intent="send-to-print" label={ADMIN_TEXT.markSentToPrint} /> : null}
          </div>
          {order.print ? <PrintJobDetails order={order} /> : null}
          {order.can.sendAgain ? <SimpleAction order={order} intent="send-again" label={ADMIN_TEXT.sendAgain} /> : null}
          {order.trackingNumber ? (
            <p className="text-sm text-gray-700">
              {ADMIN_TEXT.trackingNumber}: <span data-testid="desk-tracking" className="font-mono font-semibold">{order.trackingNumber}</span>
              {order.print?.carrier ? <span className="text-gray-500"> ({order.print.carrier})</span> : null}
            </p>
          ) : null}
          {order.can.ship ? <ShipForm order={order} /> : null}
          {order.can.refund ? <SimpleAction order={order} intent="refund" label={ADMIN_TEXT.markRefunded} subtle /> : null}
        </div>
      </div>
    </article>
  );
}

/** The print partner's job: who, its id, and the reason of a rejection (docs/decisions/028). */
function PrintJobDetails({ order }: { order: DeskOrder }) {
  const print = order.print!;
  return (
    <dl data-testid="desk-print" className="space-y-0.5 text-sm text-gray-700">
      <div>
        <dt className="inline">{ADMIN_TEXT.printJob}: </dt>
        <dd className="inline">
          {print.partner ? (PRINT_PARTNER_LABELS[print.partner] ?? print.partner) : "–"}
          {print.jobId ? <span className="font-mono"> #{print.jobId}</span> : null}
        </dd>
      </div>
      {print.detail ? (
        <div className="text-red-800">
          <dt className="inline">{ADMIN_TEXT.printReason}: </dt>
          <dd data-testid="desk-print-reason" className="inline break-words">
            {print.detail}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

/** Money to give back, by hand in the Stripe Dashboard: what came in, for which order, and why. */
function PaymentsToReview({ problems }: { problems: DeskPaymentProblem[] }) {
  return (
    <section aria-labelledby="payments-to-review-heading" className="mt-8">
      <h2 id="payments-to-review-heading" className="text-2xl font-bold text-gray-900">
        {ADMIN_TEXT.paymentsToReviewTitle}
      </h2>
      <p className="mt-1 text-gray-600">{ADMIN_TEXT.paymentsToReviewIntro}</p>
      <ul aria-label={ADMIN_TEXT.paymentsToReviewTitle} className="mt-4 divide-y divide-gray-100 rounded-2xl bg-white shadow-sm ring-1 ring-red-200">
        {problems.map((problem) => (
          <li key={problem.id} data-testid="payment-to-review" data-order={problem.orderNumber} data-kind={problem.kind} className="p-4">
            <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
              <p className="min-w-0 break-words font-medium text-red-800">{ADMIN_PAYMENT_PROBLEM_LABELS[problem.kind]}</p>
              <span className="font-semibold text-gray-900">{paymentAmount(problem)}</span>
            </div>
            <p className="mt-1 break-words text-sm text-gray-700">
              Order <span className="font-mono">{problem.orderNumber}</span> · payment <span className="font-mono">{problem.sessionId}</span>
            </p>
            <p className="mt-1 break-words text-xs text-gray-500">
              {problem.detail} · {formatDateTime(problem.createdAt)} UTC
            </p>
            <div className="mt-2">
              {problem.refundedAt ? (
                <p className="text-sm font-medium text-green-800">Refunded {formatDateTime(problem.refundedAt)} UTC</p>
              ) : (
                <RefundPaymentButton problem={problem} />
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Stripe reports lower-case ISO codes; anything the formatter does not know is shown as sent. */
function paymentAmount({ amount, currency }: DeskPaymentProblem): string {
  if (amount === null) return "";
  try {
    return formatMoney(amount, currency?.toUpperCase() ?? undefined);
  } catch {
    return `${amount} ${currency ?? ""}`.trim();
  }
}

function RefundPaymentButton({ problem }: { problem: DeskPaymentProblem }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("problemId") === String(problem.id);
  return (
    <Form
      method="post"
      onSubmit={(event) => {
        if (!window.confirm(ADMIN_TEXT.confirmPaymentRefund)) event.preventDefault();
      }}
    >
      <input type="hidden" name="orderNumber" value={problem.orderNumber} />
      <input type="hidden" name="problemId" value={problem.id} />
      <button type="submit" name="intent" value="refund-payment" disabled={busy} className={`${buttonStyles.secondary} px-3 py-1.5`}>
        {ADMIN_TEXT.markPaymentRefunded}
        <span className="sr-only"> of order {problem.orderNumber}</span>
      </button>
    </Form>
  );
}

/** A move that needs nothing but the order: one button. */
function SimpleAction({
  order,
  intent,
  label,
  subtle,
}: {
  order: DeskOrder;
  intent: "send-to-print" | "refund" | "send-again";
  label: string;
  subtle?: boolean;
}) {
  const navigation = useNavigation();
  const busy =
    navigation.state !== "idle" &&
    navigation.formData?.get("orderNumber") === order.orderNumber &&
    navigation.formData?.get("intent") === intent;
  return (
    <Form
      method="post"
      className="inline"
      onSubmit={(event) => {
        // The one move the desk cannot take back: ask first.
        if (intent === "refund" && !window.confirm(ADMIN_TEXT.confirmRefund)) event.preventDefault();
      }}
    >
      <input type="hidden" name="orderNumber" value={order.orderNumber} />
      <button
        type="submit"
        name="intent"
        value={intent}
        disabled={busy}
        className={subtle ? `${buttonStyles.subtle} -ml-3 text-red-700 hover:bg-red-50` : `${buttonStyles.primary} px-3 py-1.5`}
      >
        {label}
      </button>
    </Form>
  );
}

function ShipForm({ order }: { order: DeskOrder }) {
  const formId = `ship-${order.orderNumber}`;
  return (
    <ValidatedForm id={formId} validator={shipValidator} method="post" className="flex flex-wrap items-start gap-2" noValidate>
      <input type="hidden" name="intent" value="ship" />
      <input type="hidden" name="orderNumber" value={order.orderNumber} />
      <TrackingNumberField formId={formId} />
      <ShipButton formId={formId} />
    </ValidatedForm>
  );
}

function TrackingNumberField({ formId }: { formId: string }) {
  const { error, getInputProps } = useField("trackingNumber", { formId });
  const inputId = `${formId}-tracking`;
  return (
    <div className="min-w-0 flex-1 basis-48">
      <label htmlFor={inputId} className="sr-only">
        {ADMIN_TEXT.trackingNumber}
      </label>
      <input
        {...getInputProps({ id: inputId, type: "text", autoComplete: "off", maxLength: MAX_TRACKING_NUMBER_LENGTH })}
        placeholder={ADMIN_TEXT.trackingNumber}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
        className={`block w-full rounded-lg border px-3 py-1.5 text-sm shadow-sm focus:outline-none focus:ring-2 ${
          error ? "border-red-500 focus:ring-red-200" : "border-gray-300 focus:border-brand-500 focus:ring-brand-100"
        }`}
      />
      {error ? (
        <p id={`${inputId}-error`} className="mt-1 text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function ShipButton({ formId }: { formId: string }) {
  const submitting = useIsSubmitting(formId);
  return (
    <button type="submit" disabled={submitting} className={`${buttonStyles.primary} px-3 py-1.5`}>
      {ADMIN_TEXT.markShipped}
    </button>
  );
}

const EMAIL_KIND_LABELS: Record<string, string> = {
  "order-confirmation": "Confirmation",
  "order-shipped": "Shipped",
  "pdf-ready": "PDF ready",
};

function Outbox({ emails }: { emails: OutboxEntry[] }) {
  return (
    <section aria-labelledby="outbox-heading" className="mt-12">
      <h2 id="outbox-heading" className="text-2xl font-bold text-gray-900">
        {ADMIN_TEXT.outboxTitle}
      </h2>
      <p className="mt-1 text-gray-600">{ADMIN_TEXT.outboxIntro}</p>
      {emails.length === 0 ? (
        <p className="mt-4 rounded-2xl bg-white p-6 text-gray-600 ring-1 ring-gray-200">{ADMIN_TEXT.noEmails}</p>
      ) : (
        <ul aria-label="Order emails" className="mt-4 divide-y divide-gray-100 rounded-2xl bg-white shadow-sm ring-1 ring-gray-200">
          {emails.map((email) => (
            <li key={email.id} data-testid="outbox-email" data-order={email.orderNumber} data-kind={email.kind} className="p-4">
              <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <Link to={`/admin/emails/${email.id}`} className="min-w-0 break-words font-medium text-brand-700 hover:underline">
                  {email.subject}
                </Link>
                <EmailStatusBadge status={email.status} />
              </div>
              <p className="mt-1 break-words text-sm text-gray-600">
                {EMAIL_KIND_LABELS[email.kind] ?? email.kind} · to {email.to} · order <span className="font-mono">{email.orderNumber}</span>
              </p>
              <p className="mt-1 text-xs text-gray-500">
                Created {formatDateTime(email.createdAt)} UTC
                {email.sentAt ? ` · sent ${formatDateTime(email.sentAt)} UTC` : ""} · {email.attempts}{" "}
                {email.attempts === 1 ? "attempt" : "attempts"}
              </p>
              {email.lastError ? <p className="mt-1 break-words text-xs text-red-700">Last error: {email.lastError}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
