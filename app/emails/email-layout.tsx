/**
 * The frame every order email shares: the shop's name as a violet wordmark, one white card,
 * the sign-off and a footer. Email clients ignore stylesheets and most modern CSS, so styles
 * are inline and the layout is one centred 560 px column that narrows on a phone.
 * Brand colours are the site's `brand-*` values (app/tailwind.css).
 */
// The packages @react-email/components is made of, imported one by one: its index also
// re-exports `render`, whose edge build imports react-dom/server.edge, which React 18 does not
// have (vite in the tests refuses it) and which would bring prettier along (see render.server.ts).
import { Body } from "@react-email/body";
import { Column } from "@react-email/column";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Heading } from "@react-email/heading";
import { Hr } from "@react-email/hr";
import { Html } from "@react-email/html";
import { Link } from "@react-email/link";
import { Preview } from "@react-email/preview";
import { Row } from "@react-email/row";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { ReactNode } from "react";
import { ORDER_EMAIL_TEXT, SHOP_NAME } from "~/lib/customer-copy";

export const emailColours = {
  brand50: "#f5f3ff",
  brand100: "#ede9fe",
  brand600: "#7c3aed",
  brand700: "#6d28d9",
  text: "#111827",
  muted: "#4b5563",
  border: "#e5e7eb",
  page: "#f3f4f6",
} as const;

const fontFamily =
  '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

export const emailText = {
  body: { margin: "0 0 16px", fontSize: "16px", lineHeight: "24px", color: emailColours.text },
  muted: { margin: "0 0 12px", fontSize: "14px", lineHeight: "22px", color: emailColours.muted },
} as const;

interface EmailLayoutProps {
  /** The line inboxes show after the subject. */
  preview: string;
  heading: string;
  /** The shop's address, shown in the footer (PUBLIC_ORIGIN). */
  origin: string;
  children: ReactNode;
}

export function EmailLayout({ preview, heading, origin, children }: EmailLayoutProps) {
  return (
    <Html lang="en-GB">
      <Head />
      <Body style={{ margin: 0, padding: "24px 12px", backgroundColor: emailColours.page, fontFamily }}>
        {/* Inside the body: a div before it is invalid html, and some clients drop it. */}
        <Preview>{preview}</Preview>
        <Container style={{ maxWidth: "560px", width: "100%", margin: "0 auto" }}>
          <Section style={{ padding: "0 4px 16px" }}>
            <Link href={origin} style={{ color: emailColours.brand700, fontSize: "20px", fontWeight: 700, textDecoration: "none" }}>
              {SHOP_NAME}
            </Link>
          </Section>
          <Section
            style={{
              backgroundColor: "#ffffff",
              border: `1px solid ${emailColours.border}`,
              borderRadius: "16px",
              padding: "28px 24px",
            }}
          >
            <Heading as="h1" style={{ margin: "0 0 16px", fontSize: "24px", lineHeight: "32px", color: emailColours.text }}>
              {heading}
            </Heading>
            {children}
            <Hr style={{ borderColor: emailColours.border, margin: "24px 0 16px" }} />
            <Text style={emailText.muted}>{ORDER_EMAIL_TEXT.questions}</Text>
            <Text style={{ ...emailText.muted, margin: 0 }}>{ORDER_EMAIL_TEXT.signOff}</Text>
          </Section>
          <Text style={{ ...emailText.muted, fontSize: "12px", textAlign: "center", margin: "16px 0 0" }}>
            {ORDER_EMAIL_TEXT.footer(origin)}
          </Text>
        </Container>
      </Body>
    </Html>
  );
}

/**
 * One "label: value" line of an order summary; the value may wrap (long titles, addresses).
 * Values are bold to stand out from their labels, except `plain` ones (an address of five bold
 * lines reads as shouting).
 */
export function DetailRow({ label, plain = false, children }: { label: string; plain?: boolean; children: ReactNode }) {
  return (
    <Row style={{ borderBottom: `1px solid ${emailColours.border}` }}>
      <Column
        style={{ width: "36%", padding: "10px 8px 10px 0", verticalAlign: "top", fontSize: "14px", lineHeight: "20px", color: emailColours.muted }}
      >
        {label}
      </Column>
      <Column
        style={{
          padding: "10px 0",
          verticalAlign: "top",
          fontSize: "14px",
          lineHeight: "20px",
          fontWeight: plain ? 400 : 600,
          color: emailColours.text,
          wordBreak: "break-word",
        }}
      >
        {children}
      </Column>
    </Row>
  );
}

/** The violet call to action, as a link styled as a button (what email clients render reliably). */
export function EmailButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link
      href={href}
      style={{
        display: "inline-block",
        backgroundColor: emailColours.brand600,
        color: "#ffffff",
        fontSize: "16px",
        fontWeight: 600,
        padding: "12px 20px",
        borderRadius: "10px",
        textDecoration: "none",
      }}
    >
      {children}
    </Link>
  );
}

/**
 * The plain-text body every order email has: greeting, what happened, the order's details, what
 * comes next, then who to write to and the sign-off.
 */
export function plainTextEmail(parts: { firstName: string; intro: string; details: string[]; next: string[] }): string {
  const T = ORDER_EMAIL_TEXT;
  return [T.greeting(parts.firstName), "", parts.intro, "", ...parts.details, "", ...parts.next, "", T.questions, "", T.signOff, ""].join("\n");
}
