/**
 * The help center's categories and articles (docs/product.md §5.12), and its search. Article bodies are
 * static text consistent with docs/product.md §3 and §4; numbers come from shop-rules.ts.
 */
import { BOOK_SPECS, CONTACT_EMAIL, DELIVERY_COUNTRIES_TEXT, DELIVERY_RANGE_TEXT, PLANNED_SHIPPING_REGIONS_TEXT, PREVIEW_FORMATS_TEXT, PROCESSING_TIME_TEXT, RETENTION_TEXTS } from "../customer-copy";
import { MAX_PHOTOS_PER_BOOK, PLANS } from "../shop-rules";
import { formatMoney } from "../format";

export interface HelpArticle {
  id: string;
  title: string;
  tags: string[];
  body: string[];
}

export interface HelpCategory {
  id: string;
  title: string;
  description: string;
  articles: HelpArticle[];
}

const { standard, premium } = PLANS;

export const HELP_CATEGORIES: HelpCategory[] = [
  {
    id: "getting-started",
    title: "Getting Started",
    description: "Create your first coloring book from your photos.",
    articles: [
      {
        id: "create-your-first-book",
        title: "Creating your first coloring book",
        tags: ["start", "create", "upload", "book", "title", "dedication"],
        body: [
          `Choose a book first: the ${standard.name} (${standard.minPhotos}-${standard.maxPhotos} photos) or the ${premium.name} (${premium.minPhotos}-${premium.maxPhotos} photos).`,
          "Then upload your photos, give your book a title and, if you like, a personal message: it is printed as a dedication on the first page.",
          "Each photo becomes a black-and-white sketch. Look through them, keep the ones you like best, and check out. The book has a title page, a dedication page and one sketch per page.",
        ],
      },
      {
        id: "choosing-photos",
        title: "Choosing photos that make great pages",
        tags: ["photos", "tips", "quality", "formats", "jpg", "png", "webp"],
        body: [
          "Sharp, well-lit photos with one clear subject make the cleanest line drawings: portraits in daylight, pets, buildings, landscapes.",
          "Very dark or blurry photos, heavy filters and crowded group shots lose their details. Every sketch gets a quality score; 90 or more means it will print as it is.",
          `You can upload ${PREVIEW_FORMATS_TEXT}, up to ${MAX_PHOTOS_PER_BOOK} photos per book. Try the free preview first to see the style on one picture.`,
        ],
      },
    ],
  },
  {
    id: "ordering-payment",
    title: "Ordering & Payment",
    description: "Prices, paying securely, and changing or cancelling an order.",
    articles: [
      {
        id: "prices-and-plans",
        title: "Prices and what each book includes",
        tags: ["price", "cost", "standard", "premium", "paper", "hardcover", "paperback"],
        body: [
          `${standard.name}: ${formatMoney(standard.price)} (was ${formatMoney(standard.oldPrice)}), ${standard.binding.toLowerCase()}, ${standard.paper} paper, ${standard.minPhotos}-${standard.maxPhotos} photos.`,
          `${premium.name}: ${formatMoney(premium.price)} (was ${formatMoney(premium.oldPrice)}), ${premium.binding.toLowerCase()}, ${premium.paper} paper, ${premium.minPhotos}-${premium.maxPhotos} photos.`,
          `All prices are in pounds sterling and include free delivery. Pages are ${BOOK_SPECS.size}.`,
        ],
      },
      {
        id: "payment-and-refunds",
        title: "Paying, cancelling and refunds",
        tags: ["payment", "card", "stripe", "refund", "cancel", "retry"],
        body: [
          "You pay by card on Stripe's secure checkout page. Your card details go straight to Stripe: we never see or store them.",
          "If a payment is cancelled or fails, nothing is charged and you can try again from the cancel page.",
          `You can cancel for a full refund until your book is printed: write to ${CONTACT_EMAIL} with your order number.`,
        ],
      },
    ],
  },
  {
    id: "shipping-delivery",
    title: "Shipping & Delivery",
    description: "Delivery times, countries and tracking your book.",
    articles: [
      {
        id: "delivery-times",
        title: "How long delivery takes",
        tags: ["delivery", "shipping", "time", "days", "tracking", "free"],
        body: [
          `We print your book within ${PROCESSING_TIME_TEXT}. Delivery then takes ${DELIVERY_RANGE_TEXT}, and it is always free.`,
          "You get a confirmation e-mail with your order details, and tracking information once the book is on its way.",
        ],
      },
      {
        id: "countries",
        title: "Countries we deliver to",
        tags: ["international", "countries", "country", "abroad", "europe", "japan"],
        body: [
          `Today we deliver to ${DELIVERY_COUNTRIES_TEXT}.`,
          `Delivery to ${PLANNED_SHIPPING_REGIONS_TEXT} is planned but not open yet. If you live there, write to ${CONTACT_EMAIL} and we will let you know as soon as we can deliver to you.`,
        ],
      },
    ],
  },
  {
    id: "privacy-security",
    title: "Privacy & Security",
    description: "How we protect your photos and personal details.",
    articles: [
      {
        id: "photo-privacy",
        title: "How we look after your photos",
        tags: ["privacy", "security", "data", "delete", "gps", "exif", "consent"],
        body: [
          "Your photos are private to your browser session: only you can see them, and we never share or sell them.",
          RETENTION_TEXTS.metadata,
          `${RETENTION_TEXTS.unpaidBook} ${RETENTION_TEXTS.orderedBook} ${RETENTION_TEXTS.freePreview}`,
          "Please upload only photos you have the right to use, of people who agree to be in the book.",
        ],
      },
    ],
  },
];

export interface HelpSearchResults {
  categories: HelpCategory[];
  articles: { category: HelpCategory; article: HelpArticle }[];
}

/**
 * docs/product.md §5.12: the search filters categories by their title or description, and articles by their title
 * or tags. Case-insensitive, every word must match (so "free delivery" narrows rather than widens).
 */
export function searchHelp(query: string, categories: HelpCategory[] = HELP_CATEGORIES): HelpSearchResults {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (texts: string[]) => {
    const haystack = texts.join(" ").toLowerCase();
    return words.every((word) => haystack.includes(word));
  };
  if (words.length === 0) return { categories, articles: [] };
  return {
    categories: categories.filter((category) => matches([category.title, category.description])),
    articles: categories.flatMap((category) =>
      category.articles
        .filter((article) => matches([article.title, ...article.tags]))
        .map((article) => ({ category, article })),
    ),
  };
}

export function findHelpCategory(id: string | null) {
  return HELP_CATEGORIES.find((category) => category.id === id) ?? null;
}
