/**
 * Simple line marks for the footer's social links, drawn for this shop (no icon font, no network).
 * Decorative: the link around each carries the network's name.
 */
import type { ReactNode } from "react";
import type { SocialNetwork } from "~/lib/customer-copy";

function Mark({ children }: { children: ReactNode }) {
  return (
    <svg
      className="h-5 w-5"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}

export const SOCIAL_ICONS: Record<SocialNetwork, () => ReactNode> = {
  Instagram: () => (
    <Mark>
      <rect x="3" y="3" width="18" height="18" rx="5" />
      <circle cx="12" cy="12" r="4" />
      <circle cx="17.5" cy="6.5" r="0.6" fill="currentColor" />
    </Mark>
  ),
  Facebook: () => (
    <Mark>
      <path d="M14.5 21v-7.5h2.5l.5-3h-3V8.8c0-.9.4-1.6 1.7-1.6h1.4V4.5c-.5-.1-1.4-.2-2.4-.2-2.5 0-3.9 1.5-3.9 4.1v2.1H9v3h2.3V21" />
    </Mark>
  ),
  Pinterest: () => (
    <Mark>
      <circle cx="12" cy="12" r="9" />
      <path d="M10.8 16.5l1.6-7M10 11.2c0-2 1.3-3.2 3-3.2 1.6 0 2.7 1.1 2.7 2.7 0 2-1.1 3.6-2.7 3.6-1 0-1.6-.6-1.5-1.5" />
    </Mark>
  ),
  TikTok: () => (
    <Mark>
      <path d="M13 4v11a3.5 3.5 0 1 1-3.5-3.5" />
      <path d="M13 4c.4 2.4 2 4 4.5 4.2" />
    </Mark>
  ),
};
