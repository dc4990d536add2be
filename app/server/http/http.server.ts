/**
 * The JSON conventions of every /api route: errors are `{ message, fieldErrors? }` with a 4xx
 * status. Helpers throw a Response, which Remix returns unchanged from a resource route, so a
 * handler reads top to bottom without error plumbing.
 */
import { json } from "@remix-run/cloudflare";
import type { ZodError, ZodType, ZodTypeDef } from "zod";
import { API_MESSAGES } from "~/lib/customer-copy";
import { readBodyUpTo } from "./bytes.server";

export interface ApiError {
  message: string;
  fieldErrors?: Record<string, string[]>;
}

export function jsonError(status: number, message: string, fieldErrors?: Record<string, string[]>) {
  const body: ApiError = fieldErrors ? { message, fieldErrors } : { message };
  return json(body, { status });
}

/** Also the answer for anything of another session: ids are sequential, existence must not leak. */
export function notFound() {
  return jsonError(404, API_MESSAGES.notFound);
}

/** For the half of a resource route (loader or action) that has no such method. */
export function methodNotAllowed(allowed: string[]) {
  const response = jsonError(405, API_MESSAGES.methodNotAllowed);
  response.headers.set("Allow", allowed.join(", "));
  return response;
}

export function requireMethod(request: Request, allowed: string[]) {
  if (!allowed.includes(request.method)) throw methodNotAllowed(allowed);
}

/** A route id parameter: a positive integer in canonical form, else 404. */
export function parseId(value: string | undefined): number {
  if (!value || !/^[1-9][0-9]{0,15}$/.test(value)) throw notFound();
  const id = Number(value);
  if (!Number.isSafeInteger(id)) throw notFound();
  return id;
}

/** 400 with the first message up front (what a toast shows) and every message by field path. */
export function validationError(error: ZodError) {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    if (issue.path.length === 0) continue;
    const field = issue.path.join(".");
    (fieldErrors[field] ??= []).push(issue.message);
  }
  const message = error.issues[0]?.message ?? API_MESSAGES.invalidJson;
  return jsonError(400, message, Object.keys(fieldErrors).length ? fieldErrors : undefined);
}

/** JSON and form bodies of this API are a few hundred bytes; anything near this is abuse. */
const MAX_BODY_BYTES = 64 * 1024;

/** Parses a JSON body, or a form body when `allowForm` (plain HTML forms post those). */
export async function readBody(request: Request, { allowForm = false } = {}): Promise<unknown> {
  const contentType = request.headers.get("Content-Type")?.toLowerCase() ?? "";
  const bytes = await readBodyUpTo(request, MAX_BODY_BYTES, () => jsonError(413, API_MESSAGES.bodyTooLarge));
  const isForm =
    contentType.startsWith("application/x-www-form-urlencoded") || contentType.startsWith("multipart/form-data");
  if (allowForm && isForm) {
    try {
      const form = await new Response(bytes, { headers: { "Content-Type": contentType } }).formData();
      return Object.fromEntries(form);
    } catch {
      throw jsonError(400, API_MESSAGES.unsupportedBody);
    }
  }
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") return {};
  // A cross-site form can post text/plain without a preflight; only a JSON type is read as JSON.
  requireJsonContentType(request);
  try {
    return JSON.parse(text);
  } catch {
    throw jsonError(400, API_MESSAGES.invalidJson);
  }
}

/**
 * The fields of a page's form post (or the same fields as a JSON object), read through the same
 * cap as every body: 413 past it, 415 for another type, 400 for JSON that is not one object.
 * For page actions, which `request.formData()` would read uncapped and answer 500 for JSON.
 */
export async function readFormFields(request: Request): Promise<Record<string, unknown>> {
  const body = await readBody(request, { allowForm: true });
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw jsonError(400, API_MESSAGES.invalidJson);
  return body as Record<string, unknown>;
}

/** 415 unless the body says it is JSON (application/json or a +json type). */
export function requireJsonContentType(request: Request): void {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json" && !type.endsWith("+json")) throw jsonError(415, API_MESSAGES.jsonRequired);
}

export async function readValidBody<Output, Input>(
  request: Request,
  schema: ZodType<Output, ZodTypeDef, Input>,
  options?: { allowForm?: boolean },
): Promise<Output> {
  const result = schema.safeParse(await readBody(request, options));
  if (!result.success) throw validationError(result.error);
  return result.data;
}
