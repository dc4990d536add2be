import { Link } from "@remix-run/react";
import { buttonStyles } from "./button-styles";
import { ShopLogo } from "./shop-logo";

const NAV_LINKS = [
  { to: "/preview-test", label: "Free preview" },
  { to: "/choose-plan", label: "Pricing" },
  { to: "/faq", label: "FAQ" },
  { to: "/help", label: "Help" },
];

/** The shop bar of every storefront page (the /book/{id} pages have BookPageHeader). */
export function SiteHeader() {
  return (
    <header className="border-b border-gray-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <ShopLogo />
        <nav aria-label="Main" className="hidden items-center gap-6 text-sm font-medium text-gray-700 md:flex">
          {NAV_LINKS.map((link) => (
            <Link key={link.to} to={link.to} className="hover:text-gray-900">
              {link.label}
            </Link>
          ))}
        </nav>
        <Link to="/create-book" className={buttonStyles.primary}>
          Create your book
        </Link>
      </div>
    </header>
  );
}
