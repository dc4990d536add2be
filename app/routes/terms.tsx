import type { MetaFunction } from "@remix-run/cloudflare";
import { LegalPage } from "~/components/legal-page";
import { PAGE_META } from "~/lib/customer-copy";
import { TERMS } from "~/lib/content/legal";

export const meta: MetaFunction = () => [
  { title: PAGE_META.terms.title },
  { name: "description", content: PAGE_META.terms.description },
];

export default function Terms() {
  return <LegalPage document={TERMS} />;
}
