/**
 * The shipped email, sent when the orders desk marks an order shipped: the tracking number the
 * desk entered and the link to the order's tracking page. Html and plain text from the same props.
 */
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import { LABELS, ORDER_EMAIL_TEXT as T } from "~/lib/customer-copy";
import { DetailRow, EmailButton, EmailLayout, emailText, plainTextEmail } from "./email-layout";

export interface OrderShippedEmailProps {
  origin: string;
  firstName: string;
  orderNumber: string;
  bookTitle: string;
  /** Null when the desk shipped it without one: the row is left out. */
  trackingNumber: string | null;
  trackingUrl: string;
  /** From the print partner's shipment (docs/decisions/028); null when the desk shipped it by hand. */
  carrier?: string | null;
  carrierTrackingUrl?: string | null;
}

export function OrderShippedEmail(props: OrderShippedEmailProps) {
  return (
    <EmailLayout preview={T.shippedPreview(props.bookTitle)} heading={T.shippedHeading} origin={props.origin}>
      <Text style={emailText.body}>{T.greeting(props.firstName)}</Text>
      <Text style={emailText.body}>{T.shippedIntro}</Text>
      <Section style={{ margin: "8px 0 24px" }}>
        <DetailRow label={T.orderNumber}>{props.orderNumber}</DetailRow>
        <DetailRow label={T.bookTitle}>{props.bookTitle}</DetailRow>
        {props.trackingNumber && <DetailRow label={T.trackingNumber}>{props.trackingNumber}</DetailRow>}
        {props.carrier && <DetailRow label={T.carrier}>{props.carrier}</DetailRow>}
      </Section>
      {props.carrierTrackingUrl && (
        <Text style={emailText.body}>
          <a href={props.carrierTrackingUrl}>{T.carrierLink}</a>
        </Text>
      )}
      <Text style={emailText.body}>{T.shippedOutro}</Text>
      <Section style={{ margin: 0 }}>
        <EmailButton href={props.trackingUrl}>{LABELS.trackYourOrder}</EmailButton>
      </Section>
    </EmailLayout>
  );
}

export function orderShippedText(props: OrderShippedEmailProps): string {
  return plainTextEmail({
    firstName: props.firstName,
    intro: T.shippedIntro,
    details: [
      `${T.orderNumber}: ${props.orderNumber}`,
      `${T.bookTitle}: ${props.bookTitle}`,
      ...(props.trackingNumber ? [`${T.trackingNumber}: ${props.trackingNumber}`] : []),
      ...(props.carrier ? [`${T.carrier}: ${props.carrier}`] : []),
      ...(props.carrierTrackingUrl ? [`${T.carrierLink}: ${props.carrierTrackingUrl}`] : []),
    ],
    next: [T.shippedOutro, `${LABELS.trackYourOrder}: ${props.trackingUrl}`],
  });
}
