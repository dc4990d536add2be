/**
 * The sample stock photos of docs/product.md §5.4: two groups of four a visitor with no photos to hand
 * can add to a book. The images are ours, served from public/stock/ (sources and licences in
 * public/stock/README.md, made by scripts/make-stock-photos.mjs), never from another site.
 */
import { STOCK_PHOTO_DELAY_MS } from "./shop-rules";

export interface StockPhoto {
  /** A slug (`mandala-1`); also the added file's name, `<id>.jpg`. */
  id: string;
  /** Site-relative URL of a 400x300 JPEG in public/stock/. */
  url: string;
  title: string;
  description: string;
}

export const STOCK_PHOTO_GROUPS = ["coloringPages", "sketches"] as const;
export type StockPhotoGroup = (typeof STOCK_PHOTO_GROUPS)[number];

const stock = (id: string, title: string, description: string): StockPhoto => ({
  id,
  url: `/stock/${id}.jpg`,
  title,
  description,
});

export const STOCK_PHOTOS: Record<StockPhotoGroup, StockPhoto[]> = {
  // Drawn pictures with flat fills and clear outlines: they become crisp line art.
  coloringPages: [
    stock("mandala-1", "Mandala", "Four rings of pointed petals around a round center, with a little flower in each corner."),
    stock("geometric-1", "Geometric", "Tumbling cubes in four colors around an eight-pointed star medallion."),
    stock("floral-1", "Floral", "A striped vase of daisies, tulips and a rose on a table, with fallen petals."),
    stock("zentangle-1", "Zentangle", "A tile cut by wavy lines into six areas of pebbles, scales, stripes, waves, rings and diamonds."),
  ],
  // Real photographs, to see what the sketch engine makes of a photo.
  sketches: [
    stock("landscape-1", "Landscape", "Rowing boats pulled up on a lake shore under a glowing evening sky and hills."),
    stock("portrait-1", "Portrait", "Astronaut Eileen Collins smiling in her orange flight suit beside a model space shuttle."),
    stock("architecture-1", "Architecture", "Sweeping woven bands of a modern building's facade, in black and white."),
    stock("botanical-1", "Botanical", "A single maple leaf with every vein showing, resting on autumn leaves."),
  ],
};

/** The picker's own words (the success toast is CREATE_BOOK_MESSAGES.stockPhotoAdded). */
export const STOCK_PICKER_TEXT = {
  heading: "No photos to hand? Try one of ours",
  intro: "Add a sample picture to your book to see how it turns out.",
  groupLabels: { coloringPages: "Coloring pages", sketches: "Sketches" } satisfies Record<StockPhotoGroup, string>,
  /**
   * The button reads "Add to book"; the photo's title, there for screen readers only, sits between
   * the words so eight buttons are told apart ("Add Mandala to book") while every visible word stays
   * in the button's name (WCAG 2.5.3, label in name).
   */
  add: { before: "Add", after: " to book" },
  adding: { before: "Adding", after: "…" },
  addFailedTitle: "Could not add the stock photo",
  addFailed: (title: string) => `We could not load "${title}". Please check your connection and try again.`,
} as const;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The stock photo as a file, as if the visitor had chosen it from disk: STOCK_PHOTO_DELAY_MS, then
 * our own copy of the image. Throws when the image cannot be loaded.
 */
export async function loadStockPhotoFile(photo: StockPhoto, fetchImage: typeof fetch = fetch): Promise<File> {
  await wait(STOCK_PHOTO_DELAY_MS);
  const response = await fetchImage(photo.url);
  if (!response.ok) throw new Error(`GET ${photo.url} answered ${response.status}`);
  const blob = await response.blob();
  return new File([blob], `${photo.id}.jpg`, { type: "image/jpeg" });
}
