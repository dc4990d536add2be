import { Link } from "@remix-run/react";
import { CONTACT_EMAIL, COPYRIGHT_YEAR, SHOP_NAME, SOCIAL_LINKS } from "~/lib/customer-copy";
import { MailIcon } from "./icons";
import { SOCIAL_ICONS } from "./social-icons";
import { Tooltip } from "./tooltip";

const PAGE_LINKS = [
  { to: "/faq", label: "FAQ" },
  { to: "/help", label: "Help Center" },
  { to: "/privacy", label: "Privacy" },
  { to: "/terms", label: "Terms" },
];

/** The footer of every page: our pages, how to reach us, where to follow us, the copyright line. */
export function SiteFooter() {
  return (
    <footer className="border-t border-gray-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 text-sm text-gray-600 md:flex-row md:items-center md:justify-between">
        <nav aria-label="Footer">
          <ul className="flex flex-wrap items-center gap-x-5 gap-y-2">
            {PAGE_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="hover:text-gray-900">
                  {link.label}
                </Link>
              </li>
            ))}
            <li>
              <a href={`mailto:${CONTACT_EMAIL}`} className="inline-flex items-center gap-1.5 hover:text-gray-900">
                <MailIcon className="h-4 w-4" />
                {CONTACT_EMAIL}
              </a>
            </li>
          </ul>
        </nav>
        <ul aria-label="Follow us" className="flex items-center gap-2">
          {SOCIAL_LINKS.map(({ network, href }) => {
            const Icon = SOCIAL_ICONS[network];
            return (
              <li key={network}>
                <Tooltip label={network}>
                  <a
                    href={href}
                    rel="noreferrer"
                    target="_blank"
                    aria-label={`${SHOP_NAME} on ${network}`}
                    className="flex h-9 w-9 items-center justify-center rounded-full text-gray-500 hover:bg-brand-50 hover:text-brand-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600"
                  >
                    <Icon />
                  </a>
                </Tooltip>
              </li>
            );
          })}
        </ul>
      </div>
      <p className="border-t border-gray-100 py-4 text-center text-xs text-gray-500">
        © {COPYRIGHT_YEAR} {SHOP_NAME}. All rights reserved.
      </p>
    </footer>
  );
}
