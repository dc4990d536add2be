/**
 * /admin/test-printer: the local test printer's page (docs/decisions/028). Under `npm run dev` and
 * in the tests it plays the print partner: its jobs, and the moves Lulu's people would make
 * (production, shipping with a tracking number, a rejection), each reaching the shop's webhook as
 * Lulu's call does. Only when the local test printer is the partner; otherwise the ordinary 404.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { buttonStyles } from "~/components/button-styles";
import { TEST_PRINTER_MOVES, testPrinterMoveSchema } from "~/lib/admin-schemas";
import { ADMIN_TEXT, SHOP_NAME } from "~/lib/customer-copy";
import { database } from "~/core/db/database.server";
import { readFormFields } from "~/server/http/http.server";
import { adminNotFound, requireAdmin } from "~/server/admin/admin-access.server";
import { listLocalPrintJobs } from "~/server/printing/local-test-printer.server";
import { playTestPrinterMove, printPartnerFor } from "~/server/printing/printing.server";

export const meta: MetaFunction = () => [{ title: `${ADMIN_TEXT.testPrinterTitle} – ${SHOP_NAME}` }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const db = database(env.DB);
  if (printPartnerFor(env, db)?.name !== "local-test") throw adminNotFound();
  const jobs = await listLocalPrintJobs(db);
  return json(
    { jobs: jobs.map((job) => ({ id: job.id, externalId: job.externalId, status: job.status, trackingId: job.trackingId })) },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const parsed = testPrinterMoveSchema.safeParse(await readFormFields(request));
  if (!parsed.success) return json({ ok: false, message: ADMIN_TEXT.testPrinterUnknownJob }, { status: 400 });
  const answer = await playTestPrinterMove(env, database(env.DB), parsed.data.jobId, parsed.data.move);
  if (!answer) return json({ ok: false, message: ADMIN_TEXT.testPrinterUnknownJob }, { status: 404 });
  return json({ ok: answer.status === 200, message: `${ADMIN_TEXT.testPrinterMoved} ${answer.status} ${answer.body.outcome ?? answer.body.message ?? ""}`.trim() });
}

export default function TestPrinter() {
  const { jobs } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <main className="mx-auto max-w-4xl px-4 py-8 sm:py-10">
      <Link to="/admin" className="text-sm text-gray-600 underline">
        {ADMIN_TEXT.title}
      </Link>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-gray-900">{ADMIN_TEXT.testPrinterTitle}</h1>
      <p className="mt-2 max-w-2xl text-gray-600">{ADMIN_TEXT.testPrinterIntro}</p>
      {answer ? (
        <p role="status" data-testid="test-printer-answer" className={`mt-4 rounded-lg p-3 text-sm ${answer.ok ? "bg-green-50 text-green-900" : "bg-red-50 text-red-900"}`}>
          {answer.message}
        </p>
      ) : null}
      {jobs.length === 0 ? (
        <p className="mt-6 rounded-2xl bg-white p-6 text-gray-600 ring-1 ring-gray-200">{ADMIN_TEXT.testPrinterNoJobs}</p>
      ) : (
        <ul className="mt-6 space-y-3">
          {jobs.map((job) => (
            <li key={job.id} data-testid="test-print-job" data-external-id={job.externalId} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-gray-200">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <p className="font-mono text-sm">
                  #{job.id} · {job.externalId} · <span data-testid="test-print-status">{job.status}</span>
                  {job.trackingId ? <span> · {job.trackingId}</span> : null}
                </p>
                <Form method="post" className="flex flex-wrap gap-2">
                  <input type="hidden" name="jobId" value={job.id} />
                  {TEST_PRINTER_MOVES.map((move) => (
                    <button key={move} type="submit" name="move" value={move} className={`${buttonStyles.secondary} px-3 py-1.5`}>
                      {ADMIN_TEXT.testPrinterMoves[move]}
                    </button>
                  ))}
                </Form>
              </div>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
