import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { readDataUrlUpload, uploadFileFieldsSchema } from "~/server/data-url-upload.server";
import { database } from "~/server/db.server";
import { methodNotAllowed, requireMethod } from "~/server/http.server";
import { uploadToTicket } from "~/server/upload-tickets.server";

/** SPEC: POST /api/upload-file { imageData (data URL), presignedUrl, filename }: the ticket's PUT as JSON. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const { env } = context.cloudflare;
  const { fields, source } = await readDataUrlUpload(request, uploadFileFieldsSchema);
  const result = await uploadToTicket(env, database(env.DB), context.sessionId, fields.presignedUrl, source, new Date());
  return json(result);
}

export const loader = () => methodNotAllowed(["POST"]);
