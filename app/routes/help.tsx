import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { buttonStyles } from "~/components/button-styles";
import { ArticleLink, CategoryCard, HelpBreadcrumbs, helpHref } from "~/components/help-center";
import { ArrowLeftIcon, MailIcon, SearchIcon } from "~/components/icons";
import { PageHeading } from "~/components/page-heading";
import { useToast } from "~/components/toast";
import { CONTACT_EMAIL, PAGE_META, STOREFRONT_LABELS, STOREFRONT_MESSAGES } from "~/lib/customer-copy";
import { findHelpCategory, searchHelp, type HelpArticle, type HelpCategory } from "~/lib/content/help";

export const meta: MetaFunction = () => [
  { title: PAGE_META.help.title },
  { name: "description", content: PAGE_META.help.description },
];

/** The help center: search and categories, a category's articles, or one article (?category=&article=). */
export default function Help() {
  const [searchParams] = useSearchParams();
  const category = findHelpCategory(searchParams.get("category"));
  const article = category?.articles.find((candidate) => candidate.id === searchParams.get("article")) ?? null;

  return (
    <main>
      <PageHeading title="Help Center">
        <p>Guides to creating, ordering and receiving your coloring book.</p>
      </PageHeading>
      <div className="mx-auto max-w-3xl px-4 pb-16">
        {category && article ? (
          <ArticleView category={category} article={article} />
        ) : category ? (
          <CategoryView category={category} />
        ) : (
          <SearchView />
        )}
        <StillNeedHelp />
      </div>
    </main>
  );
}

function SearchView() {
  const [query, setQuery] = useState("");
  const results = searchHelp(query);
  const searching = query.trim() !== "";
  const nothingFound = searching && results.categories.length === 0 && results.articles.length === 0;

  return (
    <div>
      <div className="relative">
        <SearchIcon className="pointer-events-none absolute left-3 top-1/2 h-5 w-5 -translate-y-1/2 text-gray-400" />
        <input
          type="search"
          aria-label="Search help articles"
          placeholder="Search help articles"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          className="w-full rounded-lg border border-gray-300 bg-white py-3 pl-10 pr-4 text-base shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100"
        />
      </div>

      {nothingFound ? (
        <div role="status" className="mt-8 rounded-xl border border-dashed border-gray-300 bg-white p-8 text-center">
          <h2 className="text-lg font-semibold text-gray-900">No results for “{query.trim()}”</h2>
          <p className="mt-2 text-gray-600">
            Try another word, such as “delivery”, “price” or “photos”, browse the FAQ, or write to us.
          </p>
        </div>
      ) : null}

      {results.categories.length > 0 ? (
        <section aria-labelledby="help-categories" className="mt-8">
          <h2 id="help-categories" className="text-lg font-semibold text-gray-900">
            {searching ? "Matching categories" : "Browse by category"}
          </h2>
          <ul className="mt-4 grid gap-4 sm:grid-cols-2">
            {results.categories.map((match) => (
              <li key={match.id}>
                <CategoryCard category={match} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {results.articles.length > 0 ? (
        <section aria-labelledby="help-articles" className="mt-8">
          <h2 id="help-articles" className="text-lg font-semibold text-gray-900">
            Matching articles
          </h2>
          <ul className="mt-4 divide-y divide-gray-200 rounded-xl border border-gray-200 bg-white">
            {results.articles.map((match) => (
              <li key={match.article.id}>
                <ArticleLink category={match.category} article={match.article} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

function CategoryView({ category }: { category: HelpCategory }) {
  return (
    <div>
      <HelpBreadcrumbs category={category} />
      <h2 className="mt-6 text-2xl font-bold text-gray-900">{category.title}</h2>
      <p className="mt-1 text-gray-600">{category.description}</p>
      <ul className="mt-6 divide-y divide-gray-200 rounded-xl border border-gray-200 bg-white">
        {category.articles.map((article) => (
          <li key={article.id}>
            <ArticleLink category={category} article={article} />
          </li>
        ))}
      </ul>
      <Link to={helpHref()} className={`${buttonStyles.subtle} mt-6`}>
        <ArrowLeftIcon className="h-4 w-4" />
        Back to Help Center
      </Link>
    </div>
  );
}

function ArticleView({ category, article }: { category: HelpCategory; article: HelpArticle }) {
  return (
    <div>
      <HelpBreadcrumbs category={category} article={article} />
      <article className="mt-6 rounded-xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8">
        <h2 className="text-2xl font-bold text-gray-900">{article.title}</h2>
        <div className="mt-4 space-y-4 leading-relaxed text-gray-700">
          {article.body.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
      </article>
      <Link to={helpHref(category)} className={`${buttonStyles.subtle} mt-6`}>
        <ArrowLeftIcon className="h-4 w-4" />
        Back to {category.title}
      </Link>
    </div>
  );
}

function StillNeedHelp() {
  const toast = useToast();
  return (
    <section aria-labelledby="still-need-help" className="mt-12 rounded-xl bg-brand-50 p-6 text-center">
      <h2 id="still-need-help" className="text-lg font-semibold text-gray-900">
        Still need help?
      </h2>
      <p className="mt-1 text-gray-600">We usually answer within one business day.</p>
      <div className="mt-4 flex flex-col justify-center gap-3 sm:flex-row">
        <a
          href={`mailto:${CONTACT_EMAIL}?subject=${encodeURIComponent("Help with my coloring book")}`}
          className={buttonStyles.primary}
          onClick={() =>
            toast({ title: STOREFRONT_MESSAGES.openingMailApp, description: STOREFRONT_MESSAGES.mailFallback })
          }
        >
          <MailIcon className="h-4 w-4" />
          {STOREFRONT_LABELS.contactSupport}
        </a>
        <Link to="/faq" className={buttonStyles.secondary}>
          {STOREFRONT_LABELS.viewFaq}
        </Link>
      </div>
    </section>
  );
}
