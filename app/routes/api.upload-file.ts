import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { readUploadFileRequest } from "~/server/data-url-upload.server";
import { database } from "~/server/db.server";
import { methodNotAllowed, requireMethod } from "~/server/http.server";
import { uploadToTicket } from "~/server/upload-tickets.server";

/** SPEC: POST /api/upload-file { imageData (data URL), presignedUrl, filename }: the ticket's PUT as JSON. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const { env } = context.cloudflare;
  const { presignedUrl, source } = await readUploadFileRequest(request);
  const result = await uploadToTicket(env, database(env.DB), context.sessionId, presignedUrl, source, new Date());
  return json(result);
}

export const loader = () => methodNotAllowed(["POST"]);
