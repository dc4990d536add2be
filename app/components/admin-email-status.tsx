import { ADMIN_EMAIL_STATUS_LABELS } from "~/lib/customer-copy";

const STATUS_STYLES: Record<string, string> = {
  failed: "bg-red-100 text-red-800",
  sent: "bg-green-100 text-green-800",
};

/** An order email's delivery state on the orders desk (/admin). */
export function EmailStatusBadge({ status }: { status: string }) {
  const label = ADMIN_EMAIL_STATUS_LABELS[status as keyof typeof ADMIN_EMAIL_STATUS_LABELS] ?? status;
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_STYLES[status] ?? "bg-gray-100 text-gray-800"}`}>
      {label}
    </span>
  );
}
