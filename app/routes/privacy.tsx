import type { MetaFunction } from "@remix-run/cloudflare";
import { LegalPage } from "~/components/legal-page";
import { PAGE_META } from "~/lib/customer-copy";
import { PRIVACY_NOTICE } from "~/lib/content/legal";

export const meta: MetaFunction = () => [
  { title: PAGE_META.privacy.title },
  { name: "description", content: PAGE_META.privacy.description },
];

export default function Privacy() {
  return <LegalPage document={PRIVACY_NOTICE} />;
}
