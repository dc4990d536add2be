/**
 * The small read behind the /book/{id}/... pages: is the id an integer (else back to /), and is
 * the book this visitor's (else 404, the same answer as for a book that does not exist, so
 * sequential ids leak nothing). The pages get everything else from the JSON API in the browser.
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { and, count, eq, sql } from "drizzle-orm";
import { database } from "./db.server";
import { books, images } from "./db/schema";

export interface BookPageData {
  id: number;
  title: string;
  personalMessage: string | null;
  imageCount: number;
  /** Completed and selected: the photos that will be printed. */
  selectedImageCount: number;
}

/** SPEC section 2: the id is parsed as an integer; anything else goes back to the landing page. */
export function bookIdOrRedirect(param: string | undefined): number {
  if (!param || !/^[0-9]{1,16}$/.test(param)) throw redirect("/");
  const id = Number(param);
  if (!Number.isSafeInteger(id) || id < 1) throw redirect("/");
  return id;
}

export async function loadVisitorBook(context: AppLoadContext, param: string | undefined): Promise<BookPageData> {
  const id = bookIdOrRedirect(param);
  const db = database(context.cloudflare.env.DB);
  const book = await db.query.books.findFirst({
    columns: { id: true, title: true, personalMessage: true },
    where: and(eq(books.id, id), eq(books.sessionId, context.sessionId)),
  });
  if (!book) throw new Response("Not Found", { status: 404 });
  const [counts] = await db
    .select({
      imageCount: count(),
      selectedImageCount: count(
        sql`CASE WHEN ${images.isSelected} = 1 AND ${images.processingStatus} = 'completed' THEN 1 END`,
      ),
    })
    .from(images)
    .where(eq(images.bookId, id));
  return {
    ...book,
    imageCount: counts?.imageCount ?? 0,
    selectedImageCount: counts?.selectedImageCount ?? 0,
  };
}
