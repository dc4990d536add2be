import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { selectionRequestSchema } from "~/lib/schemas";
import { database } from "~/core/db/database.server";
import { methodNotAllowed, parseId, readValidBody, requireMethod } from "~/server/http/http.server";
import { imageDto, requireImage, setImageSelection } from "~/server/books/images.server";

export const loader = () => methodNotAllowed(["PATCH"]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireMethod(request, ["PATCH"]);
  const db = database(context.cloudflare.env.DB);
  const image = await requireImage(db, context.sessionId, parseId(params.imageId));
  const { isSelected } = await readValidBody(request, selectionRequestSchema);
  return json(imageDto(await setImageSelection(db, image, isSelected), image.bookDetailLevel));
}
