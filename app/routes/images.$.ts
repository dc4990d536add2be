import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { database } from "~/core/db/database.server";
import { methodNotAllowed, notFound } from "~/server/http/http.server";
import { sessionOwnsImageKey } from "~/server/books/images.server";
import { serveImage } from "~/server/uploads/storage.server";

/** Originals and sketches, only to the session whose book (or upload) they belong to. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const key = params["*"] ?? "";
  const { env } = context.cloudflare;
  if (!key || !(await sessionOwnsImageKey(database(env.DB), context.sessionId, key))) throw notFound();
  return (await serveImage(env.IMAGES, key, request)) ?? notFound();
}

export const action = () => methodNotAllowed(["GET", "HEAD"]);
