import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { ToastProvider } from "~/components/toast";
import { TooltipProvider } from "~/components/tooltip";
import { ensureBrowserSessionId } from "~/lib/browser-session";
import { SHOP_NAME, SHOP_TAGLINE } from "~/lib/customer-copy";
import stylesheet from "~/tailwind.css";
import { useCspNonce } from "~/components/csp-nonce";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

// The default for routes without their own meta (a route's meta replaces this one, it does not add to it).
export const meta: MetaFunction = () => [
  { title: `${SHOP_NAME} – ${SHOP_TAGLINE}` },
  { name: "description", content: "Turn your family photos into a printed, personalised coloring book." },
];

/** The /book/{id} pages carry their own BookPageHeader (the book's steps); every other page gets the shop's. */
function hasOwnHeader(pathname: string) {
  return pathname.startsWith("/book/");
}

export function Layout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const nonce = useCspNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col bg-gray-50 text-gray-900 antialiased">
        <ToastProvider>
          <TooltipProvider>
            {hasOwnHeader(pathname) ? null : <SiteHeader />}
            <div className="flex-1">{children}</div>
            <SiteFooter />
          </TooltipProvider>
        </ToastProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { pathname } = useLocation();
  useEffect(() => {
    ensureBrowserSessionId();
  }, []);
  // docs/product.md §5: the page scrolls to top on every route change.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
