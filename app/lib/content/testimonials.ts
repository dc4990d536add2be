/** The landing page's customer quotes (docs/product.md §5.1: six, shown three a page over two pages). */
export interface Testimonial {
  quote: string;
  name: string;
  /** Who they are to the book, shown under the name. */
  detail: string;
}

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    quote:
      "I turned our holiday photos into a book for my twins. They spent the whole rainy half-term colouring in the beach they had just been to.",
    name: "Hannah R.",
    detail: "Mum of two, Bristol",
  },
  {
    quote:
      "Grandad's old farm photos came back as proper line drawings. The dedication page made my mother cry in the best way.",
    name: "Tomás G.",
    detail: "Gift for his mother's 70th",
  },
  {
    quote:
      "The free preview sold me: I tried one picture of our cat, saw the sketch a few seconds later and ordered the premium book that evening.",
    name: "Priya S.",
    detail: "Premium book, 32 photos",
  },
  {
    quote:
      "Thick paper that takes felt tips without bleeding through. Our four-year-old recognises every page because every page is her.",
    name: "Daniel K.",
    detail: "Standard book, 12 photos",
  },
  {
    quote:
      "I ordered books for the whole class from our school trip. Uploading was easy and picking the best sketches took ten minutes.",
    name: "Ms Okafor",
    detail: "Year 2 teacher",
  },
  {
    quote:
      "We colour a page together every Sunday. It is the only screen-free hour my teenagers actually ask for.",
    name: "Claire M.",
    detail: "Family book, 45 photos",
  },
];
