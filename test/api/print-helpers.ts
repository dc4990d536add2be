/** Orders for the print partner's tests (docs/decisions/028), written straight to D1. */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { database } from "~/core/db/database.server";
import { books, orders } from "~/core/db/schema.server";

const db = database(env.DB);

/** A paid order whose print PDF exists, as the sketch Worker leaves it. */
export async function paidOrderWithPdf(overrides: Partial<typeof orders.$inferInsert> = {}) {
  const alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
  const suffix = Array.from(crypto.getRandomValues(new Uint8Array(5)), (byte) => alphabet[byte % alphabet.length]).join("");
  const orderNumber = `CB-20261126-${suffix}`;
  const [book] = await db.insert(books).values({ sessionId: `session-${orderNumber}`, title: "Our Summer", status: "ordered" }).returning();
  const [order] = await db
    .insert(orders)
    .values({
      bookId: book.id,
      orderNumber,
      customerInfo: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", address1: "1 Test Street", city: "London", zipCode: "SW1A 1AA", country: "UK" },
      pricing: { plan: "standard", photos: 5, pages: 7, unitPrice: 1999, quantity: 2, basePrice: 3998, processingFee: 0, shipping: 0, total: 3998, currency: "gbp" },
      paymentStatus: "paid",
      orderStatus: "paid",
      paidAt: new Date(),
      pdfKey: `print/${orderNumber}.pdf`,
      pdfReadyAt: new Date(),
      // The cover as the sketch Worker makes it for a coil-bound letter book (decision 028).
      coverWidthPt: 1242,
      coverHeightPt: 810,
      ...overrides,
    })
    .returning();
  return order;
}

export async function orderById(id: number) {
  return (await db.query.orders.findFirst({ where: eq(orders.id, id) }))!;
}

