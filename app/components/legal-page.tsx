import { CONTACT_EMAIL } from "~/lib/customer-copy";
import type { LegalDocument } from "~/lib/content/legal";
import { PageHeading } from "./page-heading";

/** The privacy notice and the terms share this layout: a contents list, numbered sections, how to reach us. */
export function LegalPage({ document }: { document: LegalDocument }) {
  return (
    <main>
      <PageHeading title={document.title}>
        <p className="text-base">Last updated {document.lastUpdated}</p>
      </PageHeading>
      <div className="mx-auto max-w-3xl px-4 pb-16">
        <p className="leading-relaxed text-gray-700">{document.intro}</p>
        <nav aria-label="Contents" className="mt-8 rounded-xl border border-gray-200 bg-white p-5">
          <h2 className="text-sm font-semibold uppercase tracking-wide text-gray-500">Contents</h2>
          <ol className="mt-3 list-inside list-decimal space-y-1 text-sm sm:columns-2">
            {document.sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="text-brand-700 hover:underline">
                  {section.heading}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        {document.sections.map((section, index) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} className="mt-10 scroll-mt-6">
            <h2 id={`${section.id}-heading`} className="text-xl font-semibold text-gray-900">
              {index + 1}. {section.heading}
            </h2>
            <div className="mt-3 space-y-3 leading-relaxed text-gray-700">
              {section.blocks.map((block) =>
                typeof block === "string" ? (
                  <p key={block}>{block}</p>
                ) : (
                  <ul key={block.list.join()} className="list-disc space-y-1.5 pl-6">
                    {block.list.map((item) => (
                      <li key={item}>{item}</li>
                    ))}
                  </ul>
                ),
              )}
            </div>
          </section>
        ))}
        <section aria-labelledby="contact-heading" className="mt-10 rounded-xl bg-brand-50 p-6">
          <h2 id="contact-heading" className="text-xl font-semibold text-gray-900">
            Contact us
          </h2>
          <p className="mt-2 text-gray-700">
            Questions about this page? Write to{" "}
            <a href={`mailto:${CONTACT_EMAIL}`} className="font-medium text-brand-700 underline">
              {CONTACT_EMAIL}
            </a>
            .
          </p>
        </section>
      </div>
    </main>
  );
}
