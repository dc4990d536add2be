import { Link } from "@remix-run/react";
import type { HelpArticle, HelpCategory } from "~/lib/content/help";
import { ChevronRightIcon } from "./icons";

/** Where a help page lives: the drill-down is kept in the URL so Back and shared links work. */
export function helpHref(category?: HelpCategory, article?: HelpArticle) {
  const params = new URLSearchParams();
  if (category) params.set("category", category.id);
  if (article) params.set("article", article.id);
  const query = params.toString();
  return query ? `/help?${query}` : "/help";
}

export function HelpBreadcrumbs({ category, article }: { category: HelpCategory; article?: HelpArticle }) {
  const trail = [
    { label: "Help Center", href: helpHref() },
    { label: category.title, href: helpHref(category) },
    ...(article ? [{ label: article.title, href: helpHref(category, article) }] : []),
  ];
  return (
    <nav aria-label="Breadcrumb">
      <ol className="flex flex-wrap items-center gap-1 text-sm text-gray-600">
        {trail.map((crumb, index) => {
          const current = index === trail.length - 1;
          return (
            <li key={crumb.href} className="flex items-center gap-1">
              {index > 0 ? <ChevronRightIcon className="h-4 w-4 text-gray-400" /> : null}
              {current ? (
                <span aria-current="page" className="font-medium text-gray-900">
                  {crumb.label}
                </span>
              ) : (
                <Link to={crumb.href} className="text-brand-700 hover:underline">
                  {crumb.label}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

export function CategoryCard({ category }: { category: HelpCategory }) {
  const count = category.articles.length;
  return (
    <Link
      to={helpHref(category)}
      className="block rounded-xl border border-gray-200 bg-white p-5 shadow-sm transition hover:border-brand-500 hover:shadow-md focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <h3 className="font-semibold text-gray-900">{category.title}</h3>
      <p className="mt-1 text-sm text-gray-600">{category.description}</p>
      <p className="mt-3 text-sm font-medium text-brand-700">
        {count} {count === 1 ? "article" : "articles"}
      </p>
    </Link>
  );
}

export function ArticleLink({ category, article }: { category: HelpCategory; article: HelpArticle }) {
  return (
    <Link
      to={helpHref(category, article)}
      className="flex items-center justify-between gap-4 px-5 py-4 hover:bg-gray-50 focus-visible:outline focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600"
    >
      <span>
        <span className="block font-medium text-gray-900">{article.title}</span>
        <span className="block text-sm text-gray-500">{category.title}</span>
      </span>
      <ChevronRightIcon className="h-5 w-5 shrink-0 text-gray-400" />
    </Link>
  );
}
