/**
 * The order confirmation, sent when an order is paid: what was bought, what it cost, when it
 * arrives, where it goes, and the link to its tracking page. The html (React) and the plain-text
 * body are built from the same props and the same texts.
 */
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import { LABELS, ORDER_EMAIL_TEXT as T } from "~/lib/customer-copy";
import { DetailRow, EmailButton, EmailLayout, emailText, plainTextEmail } from "./email-layout";
import { CustomerPdfSection, customerPdfTextLines, type CustomerPdfLink } from "./pdf-ready-email";

export interface OrderConfirmationEmailProps {
  origin: string;
  firstName: string;
  orderNumber: string;
  bookTitle: string;
  pages: number;
  quantity: number;
  /** Already formatted with the shop's money formatter (formatMoney). */
  total: string;
  estimatedDelivery: string;
  /** The delivery address, one line each (name, street, city and postcode, country). */
  addressLines: string[];
  trackingUrl: string;
  /** The customer's own PDF when it exists by the time the email is written (docs/decisions/028). */
  pdf?: CustomerPdfLink | null;
}

export function OrderConfirmationEmail(props: OrderConfirmationEmailProps) {
  return (
    <EmailLayout preview={T.confirmationPreview(props.bookTitle)} heading={T.confirmationHeading} origin={props.origin}>
      <Text style={emailText.body}>{T.greeting(props.firstName)}</Text>
      <Text style={emailText.body}>{T.confirmationIntro}</Text>
      <Section style={{ margin: "8px 0 24px" }}>
        <DetailRow label={T.orderNumber}>{props.orderNumber}</DetailRow>
        <DetailRow label={T.bookTitle}>{props.bookTitle}</DetailRow>
        <DetailRow label={T.pages}>{props.pages}</DetailRow>
        <DetailRow label={T.quantity}>{props.quantity}</DetailRow>
        <DetailRow label={T.total}>{props.total}</DetailRow>
        <DetailRow label={T.estimatedDelivery}>{props.estimatedDelivery}</DetailRow>
        <DetailRow label={T.deliveryAddress} plain>
          {props.addressLines.map((line, index) => (
            <span key={index}>
              {index > 0 && <br />}
              {line}
            </span>
          ))}
        </DetailRow>
      </Section>
      <Text style={emailText.body}>{T.trackIntro}</Text>
      <Section style={{ margin: "0 0 24px" }}>
        <EmailButton href={props.trackingUrl}>{LABELS.trackYourOrder}</EmailButton>
      </Section>
      {props.pdf && <CustomerPdfSection intro={T.pdfLinkIntro} pdf={props.pdf} />}
      <Text style={{ ...emailText.body, margin: 0 }}>{T.confirmationOutro}</Text>
    </EmailLayout>
  );
}

export function orderConfirmationText(props: OrderConfirmationEmailProps): string {
  return plainTextEmail({
    firstName: props.firstName,
    intro: T.confirmationIntro,
    details: [
      `${T.orderNumber}: ${props.orderNumber}`,
      `${T.bookTitle}: ${props.bookTitle}`,
      `${T.pages}: ${props.pages}`,
      `${T.quantity}: ${props.quantity}`,
      `${T.total}: ${props.total}`,
      `${T.estimatedDelivery}: ${props.estimatedDelivery}`,
      `${T.deliveryAddress}:`,
      ...props.addressLines.map((line) => `  ${line}`),
    ],
    next: [T.trackIntro, props.trackingUrl, "", ...(props.pdf ? [...customerPdfTextLines(T.pdfLinkIntro, props.pdf), ""] : []), T.confirmationOutro],
  });
}
