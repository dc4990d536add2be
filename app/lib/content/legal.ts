/**
 * The privacy notice (UK GDPR) and the terms of sale, as a small UK shop publishes them.
 * Kept as data so both pages share one layout; retention and contact facts come from shop-rules.ts and customer-copy.ts.
 */
import { BOOK_SPECS, CONTACT_EMAIL, DELIVERY_COUNTRIES_TEXT, DELIVERY_RANGE_TEXT, PROCESSING_TIME_TEXT, RETENTION_TEXTS, SHOP_NAME } from "../customer-copy";
import { PLANS } from "../shop-rules";
import { formatMoney } from "../format";

/** A paragraph, or a bulleted list. */
export type LegalBlock = string | { list: string[] };

export interface LegalSection {
  id: string;
  heading: string;
  blocks: LegalBlock[];
}

export interface LegalDocument {
  title: string;
  lastUpdated: string;
  intro: string;
  sections: LegalSection[];
}

const LAST_UPDATED = "1 November 2025";
/** The retention rules changed (docs/decisions/019): the notice says so with its date. */
const PRIVACY_LAST_UPDATED = "25 November 2026";

export const PRIVACY_NOTICE: LegalDocument = {
  title: "Privacy Notice",
  lastUpdated: PRIVACY_LAST_UPDATED,
  intro: `This notice explains what personal data ${SHOP_NAME} collects when you use our website and buy a coloring book, why we need it, how long we keep it, and the rights you have under the UK General Data Protection Regulation (UK GDPR) and the Data Protection Act 2018.`,
  sections: [
    {
      id: "who-we-are",
      heading: "Who we are",
      blocks: [
        `${SHOP_NAME} is a small business in the United Kingdom that turns customers' photos into printed coloring books. We are the data controller for the personal data described here. You can reach us at ${CONTACT_EMAIL}.`,
      ],
    },
    {
      id: "what-we-store",
      heading: "What we store",
      blocks: [
        {
          list: [
            "The photos you upload, and the sketches we make from them.",
            "The title and personal message (dedication) you give your book.",
            "For an order: your name, e-mail address and delivery address, and the order's details (book, quantity, price, payment status).",
            "A random session identifier that ties your photos and orders to your browser. We do not ask you to create an account.",
          ],
        },
        "Payments are handled by Stripe. You enter your card details on Stripe's page; we never see or store your card number. Stripe tells us only whether the payment succeeded.",
        `${RETENTION_TEXTS.metadata} We do not keep the camera details or the place a photo was taken.`,
      ],
    },
    {
      id: "why",
      heading: "Why we use it, and on what legal basis",
      blocks: [
        {
          list: [
            "To make and deliver the book you ordered, and to tell you about your order (performance of a contract).",
            "To show you your own photos and sketches while you create your book (performance of a contract, or steps you ask for before one).",
            "To keep the accounting records the law requires (legal obligation).",
            "To keep our service secure and prevent abuse, for example limiting the free preview to one picture per browser (legitimate interests).",
            "To send you our newsletter, only if you ticked the box for it; you can unsubscribe at any time (consent).",
          ],
        },
        "We do not sell your data, we do not use your photos for advertising, and we do not use them to train any model.",
      ],
    },
    {
      id: "how-long",
      heading: "How long we keep it",
      blocks: [
        {
          list: [
            RETENTION_TEXTS.unpaidBook,
            RETENTION_TEXTS.orderedBook,
            RETENTION_TEXTS.unpaidOrderOfBoughtBook,
            RETENTION_TEXTS.orders,
            RETENTION_TEXTS.paymentProblems,
            RETENTION_TEXTS.freePreview,
            RETENTION_TEXTS.unusedUploads,
          ],
        },
      ],
    },
    {
      id: "who-we-share-with",
      heading: "Who we share it with",
      blocks: [
        "Only the service providers we need to run the shop, each bound by a contract to protect your data: Cloudflare (hosting and storage), Stripe (payments), our printer and the postal or courier service that delivers your book (your name and delivery address, and the pages to print). Some of them process data outside the UK; where they do, the transfer is protected by the UK's adequacy regulations or the UK International Data Transfer Addendum.",
      ],
    },
    {
      id: "cookies",
      heading: "Cookies and browser storage",
      blocks: [
        "We set one cookie: a signed session cookie that identifies your browser to our server, so that only you can see your photos, sketches and orders. It is strictly necessary for the shop to work, so it does not need your consent. It contains no personal details and lasts up to one year.",
        "We also keep a few items in your browser's own storage, which never leave your device unless you send them: your session id, an order waiting for payment (so you can retry a cancelled payment), and a flag that records whether you have used your free preview.",
        "We use no advertising or tracking cookies.",
      ],
    },
    {
      id: "your-rights",
      heading: "Your rights",
      blocks: [
        "Under UK GDPR you have the right to:",
        {
          list: [
            "ask for a copy of the personal data we hold about you;",
            "have inaccurate data corrected;",
            "have your data deleted, for example your photos before the year is up;",
            "object to or restrict how we use your data;",
            "receive your data in a portable format;",
            "withdraw consent (such as for the newsletter) at any time.",
          ],
        },
        `Write to ${CONTACT_EMAIL}; we answer within one month. If you are unhappy with how we handle your data, you can complain to the Information Commissioner's Office (ico.org.uk, 0303 123 1113).`,
      ],
    },
    {
      id: "security",
      heading: "Security",
      blocks: [
        "Your data travels over encrypted connections. Photos are stored under random names that cannot be guessed, and our server only shows them to the browser session that uploaded them.",
      ],
    },
    {
      id: "changes",
      heading: "Changes to this notice",
      blocks: ["If we change how we use your data, we will update this page and the date at the top."],
    },
  ],
};

const { standard, premium } = PLANS;

export const TERMS: LegalDocument = {
  title: "Terms and Conditions",
  lastUpdated: LAST_UPDATED,
  intro: `These terms apply when you use the ${SHOP_NAME} website and buy a book from us. Please read them before you order; by placing an order you accept them. They do not affect your statutory rights under UK consumer law.`,
  sections: [
    {
      id: "the-product",
      heading: "The product",
      blocks: [
        `We make personalised coloring books from photos you upload: each photo becomes a black-and-white line drawing, printed one per page, with a title page and a dedication page. Pages are ${BOOK_SPECS.size}.`,
        `A ${standard.name} is a ${standard.binding.toLowerCase()} on ${standard.paper} paper for ${standard.minPhotos}-${standard.maxPhotos} photos; a ${premium.name} is a ${premium.binding.toLowerCase()} on ${premium.paper} paper for ${premium.minPhotos}-${premium.maxPhotos} photos.`,
        "Sketches are made automatically, so they are an artistic interpretation of your photos, not an exact copy. You see every sketch before you order, and only the sketches you choose are printed.",
      ],
    },
    {
      id: "prices",
      heading: "Prices and payment",
      blocks: [
        `Prices are in pounds sterling (GBP) and include VAT where it applies and delivery. The ${standard.name} costs ${formatMoney(standard.price)} and the ${premium.name} ${formatMoney(premium.price)} per copy. The price you pay is the one shown at checkout.`,
        "You pay by card through Stripe. Your contract with us starts when we confirm your order by e-mail.",
      ],
    },
    {
      id: "your-photos",
      heading: "Your photos",
      blocks: [
        "You may upload only photos that you took yourself or have the right to use. If a photo shows other people, you confirm that they (or, for a child, a parent or guardian) agree to it being used in the book. You are responsible for having this consent and these rights; we cannot check them for you.",
        "You keep every right in your photos. You allow us to store and process them only to make, show and print your book.",
      ],
    },
    {
      id: "acceptable-content",
      heading: "Acceptable content",
      blocks: [
        "Please do not upload photos that:",
        {
          list: [
            "are unlawful, or infringe someone else's copyright, trademark or privacy;",
            "show nudity, sexual content, or any sexualised image of a child;",
            "are violent, hateful, harassing or discriminatory;",
            "show someone who has not agreed to be in the book.",
          ],
        },
        "We may refuse or cancel an order that breaks these rules, with a full refund, and we report illegal content to the authorities.",
      ],
    },
    {
      id: "delivery",
      heading: "Delivery",
      blocks: [
        `We print your book within ${PROCESSING_TIME_TEXT} of your order; delivery then takes ${DELIVERY_RANGE_TEXT}. Delivery is free. We deliver to ${DELIVERY_COUNTRIES_TEXT}.`,
        "If your book has not arrived 30 days after your order, write to us and we will reprint it or refund you.",
      ],
    },
    {
      id: "cancellations-refunds",
      heading: "Cancellations and refunds",
      blocks: [
        "You can cancel your order for a full refund until your book is printed: write to us with your order number. Because each book is personalised and made to your instructions, the 14-day cancellation period of the Consumer Contracts Regulations does not apply once printing has started.",
        "If your book arrives damaged, misprinted or not as described, tell us within 30 days with a photo of the problem and we will reprint it or refund you in full, as you prefer.",
      ],
    },
    {
      id: "liability",
      heading: "Our responsibility to you",
      blocks: [
        "We are responsible for loss or damage you suffer that is a foreseeable result of our breaking these terms or failing to use reasonable care and skill. We are not responsible for loss that was not foreseeable. Nothing in these terms limits our liability where it would be unlawful to do so.",
      ],
    },
    {
      id: "law",
      heading: "Law and disputes",
      blocks: [
        "These terms are governed by the law of England and Wales. If you live in Scotland or Northern Ireland you may also bring proceedings in your local courts.",
      ],
    },
  ],
};
