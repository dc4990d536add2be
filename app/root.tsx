import type { LinksFunction } from "@remix-run/cloudflare";
import { Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ToastProvider } from "~/components/toast";
import { ensureBrowserSessionId } from "~/lib/browser-session";
import { SHOP_NAME, SHOP_TAGLINE } from "~/lib/constants";
import stylesheet from "~/tailwind.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: stylesheet }, { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export const COPYRIGHT_YEAR = 2025;
export const CONTACT_EMAIL = "hello@coloringbook.example";

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${SHOP_NAME} – ${SHOP_TAGLINE}`}</title>
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col bg-gray-50 text-gray-900 antialiased">
        <ToastProvider>
          <div className="flex-1">{children}</div>
          <SiteFooter />
        </ToastProvider>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  const { pathname } = useLocation();
  useEffect(() => {
    ensureBrowserSessionId();
  }, []);
  // SPEC: the page scrolls to top on every route change.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

function SiteFooter() {
  return (
    <footer className="border-t border-gray-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-4 px-4 py-8 text-sm text-gray-600 sm:flex-row">
        <p>
          © {COPYRIGHT_YEAR} {SHOP_NAME}. All rights reserved.
        </p>
        <nav aria-label="Footer" className="flex flex-wrap items-center gap-4">
          <Link to="/faq" className="hover:text-gray-900">FAQ</Link>
          <Link to="/help" className="hover:text-gray-900">Help</Link>
          <Link to="/privacy" className="hover:text-gray-900">Privacy</Link>
          <Link to="/terms" className="hover:text-gray-900">Terms</Link>
          <a href={`mailto:${CONTACT_EMAIL}`} className="hover:text-gray-900">Contact</a>
          <a href="https://www.instagram.com/" rel="noreferrer" target="_blank" aria-label="Instagram">Instagram</a>
          <a href="https://www.facebook.com/" rel="noreferrer" target="_blank" aria-label="Facebook">Facebook</a>
          <a href="https://www.pinterest.com/" rel="noreferrer" target="_blank" aria-label="Pinterest">Pinterest</a>
          <a href="https://www.tiktok.com/" rel="noreferrer" target="_blank" aria-label="TikTok">TikTok</a>
        </nav>
      </div>
    </footer>
  );
}
