/**
 * The small read behind the /book/{id}/... pages: is the id an integer (else back to /), and is
 * the book this visitor's (else 404, the same answer as for a book that does not exist, so
 * sequential ids leak nothing). The pages get everything else from the JSON API in the browser.
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { count, eq, sql } from "drizzle-orm";
import { requireBook } from "./books.server";
import { database } from "~/core/db/database.server";
import { images, type BookType } from "~/core/db/schema.server";

export interface BookPageData {
  id: number;
  title: string;
  personalMessage: string | null;
  imageCount: number;
  /** Completed and selected: the photos that will be printed. */
  selectedImageCount: number;
  /** Not failed: sketches now or soon (the preview page's photo range advice). */
  usableImageCount: number;
  /** The plan chosen on create-book; null for a book of the /book/{id} pages. */
  bookType: BookType | null;
}

/** docs/product.md §5.7: the id is parsed as an integer; anything else goes back to the landing page. */
export function bookIdOrRedirect(param: string | undefined): number {
  if (!param || !/^[0-9]{1,16}$/.test(param)) throw redirect("/");
  const id = Number(param);
  if (!Number.isSafeInteger(id) || id < 1) throw redirect("/");
  return id;
}

export async function loadVisitorBook(context: AppLoadContext, param: string | undefined): Promise<BookPageData> {
  const id = bookIdOrRedirect(param);
  const db = database(context.cloudflare.env.DB);
  // The same ownership check as the API: a thrown 404 for anyone else's book.
  const { title, personalMessage, bookType } = await requireBook(db, context.sessionId, id);
  const [counts] = await db
    .select({
      imageCount: count(),
      selectedImageCount: count(
        sql`CASE WHEN ${images.isSelected} = 1 AND ${images.processingStatus} = 'completed' THEN 1 END`,
      ),
      usableImageCount: count(sql`CASE WHEN ${images.processingStatus} <> 'failed' THEN 1 END`),
    })
    .from(images)
    .where(eq(images.bookId, id));
  return {
    id,
    title,
    personalMessage,
    imageCount: counts?.imageCount ?? 0,
    selectedImageCount: counts?.selectedImageCount ?? 0,
    usableImageCount: counts?.usableImageCount ?? 0,
    bookType,
  };
}
