/**
 * The FAQ page's questions (docs/product.md §5.11), with the choices of docs/product.md §4 where the brief disagreed with
 * itself (5-50 photos, £ prices, 3-15 business days). Numbers come from shop-rules.ts.
 */
import { BOOK_PAGES_ADVERTISED, LOWEST_BOOK_PRICE, MAX_PHOTOS_PER_BOOK, PLANS } from "../shop-rules";
import { BOOK_SPECS, DELIVERY_COUNTRIES_TEXT, DELIVERY_RANGE_TEXT, PLANNED_SHIPPING_REGIONS_TEXT, PREVIEW_FORMATS_TEXT, PROCESSING_TIME_TEXT, RETENTION_TEXTS } from "../customer-copy";
import { formatMoney } from "../format";

export interface FaqItem {
  /** Stable, URL-safe: the id of the answer panel. */
  id: string;
  question: string;
  answer: string[];
}

const { standard, premium } = PLANS;

export const FAQ_ITEMS: FaqItem[] = [
  {
    id: "what-is-it",
    question: "What is a personalised coloring book?",
    answer: [
      "We turn your own photos - your children, pets, holidays, family gatherings - into clean black-and-white line drawings and print them as a coloring book with your title and a personal dedication.",
      "It makes a one-of-a-kind present: the people who color it know every face and place in it.",
    ],
  },
  {
    id: "how-it-works",
    question: "How does it work?",
    answer: [
      "1. Choose a Standard or Premium book. 2. Upload your photos. 3. We convert each one into a sketch, and you pick the ones you want. 4. Add a title and a dedication, and pay. 5. We print your book and post it to you.",
      `Printing takes ${PROCESSING_TIME_TEXT}; delivery then takes ${DELIVERY_RANGE_TEXT}.`,
    ],
  },
  {
    id: "photo-tips",
    question: "Which photos work best?",
    answer: [
      "Sharp, well-lit photos with a clear subject give the cleanest lines. Daylight portraits, pets, buildings and landscapes work very well.",
      "Avoid very dark, blurry or heavily filtered pictures, and crowded group shots where faces are tiny: small details are lost when a photo becomes a line drawing. Each sketch gets a quality score so you can see which photos will print best.",
    ],
  },
  {
    id: "how-many-photos",
    question: "How many photos do I need?",
    answer: [
      `Between ${standard.minPhotos} and ${MAX_PHOTOS_PER_BOOK}, depending on the book: a ${standard.name} takes ${standard.minPhotos}-${standard.maxPhotos} photos, a ${premium.name} ${premium.minPhotos}-${premium.maxPhotos}.`,
    ],
  },
  {
    id: "formats",
    question: "Which photo formats can I upload?",
    answer: [
      `${PREVIEW_FORMATS_TEXT}. Photos straight from a phone or camera are fine; large photos are resized in your browser before upload, to the size a printed page needs.`,
    ],
  },
  {
    id: "free-preview",
    question: "Can I try it before I buy?",
    answer: [
      "Yes. The free preview turns one picture of your choice into a sketch, so you can see the style before ordering. It is one free picture per browser.",
    ],
  },
  {
    id: "whats-included",
    question: "What is included in the book?",
    answer: [
      `A title page with your book's title, a dedication page with your personal message, and one sketch per page - one page for each photo you select. Pages are ${BOOK_SPECS.size} size.`,
      `A ${standard.name} is a ${standard.binding.toLowerCase()} on ${standard.paper} paper; a ${premium.name} is a ${premium.binding.toLowerCase()} on ${premium.paper} paper. Both come with up to ${BOOK_PAGES_ADVERTISED} pages.`,
    ],
  },
  {
    id: "price",
    question: "How much does a book cost?",
    answer: [
      `Books start from ${formatMoney(LOWEST_BOOK_PRICE)}: the ${standard.name} costs ${formatMoney(standard.price)} and the ${premium.name} ${formatMoney(premium.price)}. Delivery is free.`,
    ],
  },
  {
    id: "shipping-time",
    question: "How long does delivery take?",
    answer: [
      `We print your book within ${PROCESSING_TIME_TEXT}, and delivery takes ${DELIVERY_RANGE_TEXT} after that. Shipping is free.`,
    ],
  },
  {
    id: "international",
    question: "Do you ship internationally?",
    answer: [
      `Today we deliver to ${DELIVERY_COUNTRIES_TEXT}: these are the countries the delivery form offers.`,
      `Delivery to ${PLANNED_SHIPPING_REGIONS_TEXT} is planned but not open yet. If you live there, write to us and we will tell you as soon as we can deliver to you.`,
    ],
  },
  {
    id: "refunds",
    question: "Can I cancel or get a refund?",
    answer: [
      "Yes, until your book is printed: write to us and we refund you in full. Once printing has started the book is made just for you, so we cannot take it back - unless it arrives damaged or misprinted, in which case we reprint it or refund you.",
    ],
  },
  {
    id: "photo-consent",
    question: "Whose photos can I use?",
    answer: [
      "Only photos you took yourself or have the right to use, and of people who agree to appear in the book (for children, their parent or guardian). By uploading you confirm that you have this consent; we cannot check it for you.",
    ],
  },
  {
    id: "data-security",
    question: "Are my photos safe?",
    answer: [
      "Your photos are private to your browser session: no one else can see them, and we never share or sell them. Everything is sent over an encrypted connection.",
      `${RETENTION_TEXTS.metadata} ${RETENTION_TEXTS.unpaidBook} ${RETENTION_TEXTS.orderedBook} ${RETENTION_TEXTS.freePreview}`,
    ],
  },
  {
    id: "change-order",
    question: "Can I change my title or photos after ordering?",
    answer: [
      "Write to us as soon as possible: until your book goes to print we can change the title, the dedication or the delivery address.",
    ],
  },
  {
    id: "multiple-copies",
    question: "Can I order more than one copy?",
    answer: [
      "Yes. Choose the quantity at checkout; every copy is printed from the same pages and each is delivered free. Perfect for grandparents, cousins and party guests.",
    ],
  },
];
