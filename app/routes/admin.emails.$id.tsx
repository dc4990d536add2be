/**
 * /admin/emails/{id}: one order email as the customer gets it. Its HTML is shown in an iframe
 * with an empty sandbox (no scripts, no forms, no same-origin access), its text body below.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { EmailStatusBadge } from "~/components/admin-email-status";
import { ArrowLeftIcon } from "~/components/icons";
import { ADMIN_TEXT, SHOP_NAME } from "~/lib/customer-copy";
import { adminNotFound, requireAdmin } from "~/server/admin/admin-access.server";
import { findOutboxEmail } from "~/server/admin/admin-orders.server";
import { database } from "~/core/db/database.server";

export const meta: MetaFunction = () => [{ title: `Order email – ${ADMIN_TEXT.title} – ${SHOP_NAME}` }, { name: "robots", content: "noindex" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const id = Number(params.id);
  if (!/^[1-9]\d{0,15}$/.test(params.id ?? "") || !Number.isSafeInteger(id)) throw adminNotFound();
  const email = await findOutboxEmail(database(env.DB), id);
  if (!email) throw adminNotFound();
  return json({ email }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function OrderEmailView() {
  const { email } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-4xl px-4 py-8 sm:py-10">
      <Link to="/admin" className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 hover:underline">
        <ArrowLeftIcon className="h-4 w-4" />
        {ADMIN_TEXT.title}
      </Link>
      <h1 className="mt-4 break-words text-2xl font-bold text-gray-900">{email.subject}</h1>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-gray-500">To</dt>
        <dd className="break-words text-gray-900">{email.to}</dd>
        <dt className="text-gray-500">Order</dt>
        <dd className="font-mono text-gray-900">{email.orderNumber}</dd>
        <dt className="text-gray-500">Status</dt>
        <dd className="text-gray-900">
          <EmailStatusBadge status={email.status} /> · {email.attempts} {email.attempts === 1 ? "attempt" : "attempts"}
        </dd>
        {email.lastError ? (
          <>
            <dt className="text-gray-500">Last error</dt>
            <dd className="break-words text-red-700">{email.lastError}</dd>
          </>
        ) : null}
      </dl>
      <h2 className="mt-8 text-lg font-semibold text-gray-900">HTML version</h2>
      {/* sandbox="" : the email's markup cannot run script or reach this page. */}
      <iframe
        title={`Email: ${email.subject}`}
        sandbox=""
        srcDoc={email.html}
        className="mt-3 h-[32rem] w-full rounded-lg border border-gray-200 bg-white"
      />
      <h2 className="mt-8 text-lg font-semibold text-gray-900">Text version</h2>
      <pre className="mt-3 overflow-x-auto whitespace-pre-wrap break-words rounded-lg bg-white p-4 text-sm text-gray-800 ring-1 ring-gray-200">
        {email.textBody}
      </pre>
    </main>
  );
}
