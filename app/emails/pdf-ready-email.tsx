/**
 * The customer's own PDF by email (docs/decisions/028): the section the order confirmation
 * carries when the PDF exists by then, and the short email sent once when it is made later.
 * Html and plain text from the same props.
 */
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import { CUSTOMER_PDF_TEXT, LABELS, ORDER_EMAIL_TEXT as T } from "~/lib/customer-copy";
import { DetailRow, EmailButton, EmailLayout, emailText, plainTextEmail } from "./email-layout";

export interface CustomerPdfLink {
  /** Absolute and signed: the email is read outside the shop. */
  url: string;
  /** Until when the link works, as the customer reads it ("27 December 2026"). */
  until: string;
}

export function CustomerPdfSection({ intro, pdf }: { intro: string; pdf: CustomerPdfLink }) {
  return (
    <>
      <Text style={emailText.body}>{intro}</Text>
      <Section style={{ margin: "0 0 16px" }}>
        <EmailButton href={pdf.url}>{CUSTOMER_PDF_TEXT.download}</EmailButton>
      </Section>
      <Text style={emailText.body}>{T.pdfLinkNote(pdf.until)}</Text>
    </>
  );
}

export function customerPdfTextLines(intro: string, pdf: CustomerPdfLink): string[] {
  return [intro, `${CUSTOMER_PDF_TEXT.download}: ${pdf.url}`, T.pdfLinkNote(pdf.until)];
}

export interface PdfReadyEmailProps {
  origin: string;
  firstName: string;
  orderNumber: string;
  bookTitle: string;
  trackingUrl: string;
  pdf: CustomerPdfLink;
}

export function PdfReadyEmail(props: PdfReadyEmailProps) {
  return (
    <EmailLayout preview={T.pdfReadyPreview(props.bookTitle)} heading={T.pdfReadyHeading} origin={props.origin}>
      <Text style={emailText.body}>{T.greeting(props.firstName)}</Text>
      <Section style={{ margin: "8px 0 24px" }}>
        <DetailRow label={T.orderNumber}>{props.orderNumber}</DetailRow>
        <DetailRow label={T.bookTitle}>{props.bookTitle}</DetailRow>
      </Section>
      <CustomerPdfSection intro={T.pdfReadyIntro} pdf={props.pdf} />
      <Section style={{ margin: 0 }}>
        <EmailButton href={props.trackingUrl}>{LABELS.trackYourOrder}</EmailButton>
      </Section>
    </EmailLayout>
  );
}

export function pdfReadyText(props: PdfReadyEmailProps): string {
  return plainTextEmail({
    firstName: props.firstName,
    intro: T.pdfReadyIntro,
    details: [`${T.orderNumber}: ${props.orderNumber}`, `${T.bookTitle}: ${props.bookTitle}`],
    next: [`${CUSTOMER_PDF_TEXT.download}: ${props.pdf.url}`, T.pdfLinkNote(props.pdf.until), "", `${LABELS.trackYourOrder}: ${props.trackingUrl}`],
  });
}
