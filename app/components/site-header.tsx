import { Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useId, useState } from "react";
import { STOREFRONT_LABELS } from "~/lib/customer-copy";
import { buttonStyles } from "./button-styles";
import { CloseIcon, MenuIcon } from "./icons";
import { ShopLogo } from "./shop-logo";

const NAV_LINKS = [
  { to: "/preview-test", label: "Free preview" },
  { to: "/choose-plan", label: "Pricing" },
  { to: "/faq", label: "FAQ" },
  { to: "/help", label: "Help" },
];

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  isActive ? "text-brand-700" : "text-gray-700 hover:text-gray-900";

/**
 * The shop bar of every storefront page (the /book/{id} pages have BookPageHeader). Below the md
 * breakpoint the links fold into a disclosure menu, so a phone still reaches every page.
 */
export function SiteHeader() {
  const menuId = useId();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();

  // A followed link closes the menu; so does Escape.
  useEffect(() => setMenuOpen(false), [location.pathname, location.search]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setMenuOpen(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [menuOpen]);

  return (
    <header className="border-b border-gray-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <ShopLogo />
        <nav aria-label="Main" className="hidden items-center gap-6 text-sm font-medium md:flex">
          {NAV_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} className={navLinkClass}>
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="flex items-center gap-2">
          {/* The wrapper hides it: buttonStyles' own inline-flex would beat a `hidden` on the link. */}
          <div className="hidden sm:block">
            <Link to="/create-book" className={buttonStyles.primary}>
              {STOREFRONT_LABELS.createYourBook}
            </Link>
          </div>
          <button
            type="button"
            className="inline-flex h-10 w-10 items-center justify-center rounded-md text-gray-700 hover:bg-gray-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600 md:hidden"
            aria-label={STOREFRONT_LABELS.menu}
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <CloseIcon className="h-6 w-6" /> : <MenuIcon className="h-6 w-6" />}
          </button>
        </div>
      </div>
      <nav
        id={menuId}
        aria-label="Main menu"
        hidden={!menuOpen}
        className="border-t border-gray-100 px-4 pb-4 pt-2 md:hidden"
      >
        <ul className="flex flex-col text-base font-medium">
          {NAV_LINKS.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} className={(state) => `block rounded-md px-2 py-3 ${navLinkClass(state)}`}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <Link to="/create-book" className={`${buttonStyles.primary} mt-2 w-full sm:hidden`}>
          {STOREFRONT_LABELS.createYourBook}
        </Link>
      </nav>
    </header>
  );
}
