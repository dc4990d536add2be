/**
 * A stand-in for Resend's HTTP API (POST https://api.resend.com/emails), handed to our provider
 * as its fetch (nothing leaves the machine). It keeps every request, answers like Resend
 * (`{ id }`, or `{ statusCode, name, message }`), checks the key and the required fields,
 * honours Idempotency-Key as Resend does (same key and body: the first answer again, nothing
 * sent twice; same key, other body: 409), and can be told to fail or to drop the connection.
 */
export interface ResendRequest {
  method: string;
  url: string;
  headers: Headers;
  body: Record<string, unknown> | null;
}

export interface DeliveredEmail {
  id: string;
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
}

export const FAKE_RESEND_KEY = "re_test_fake_key";

export class FakeResend {
  readonly requests: ResendRequest[] = [];
  /** Emails Resend accepted for sending: one per idempotency key. */
  readonly delivered: DeliveredEmail[] = [];
  private readonly byIdempotencyKey = new Map<string, { body: string; id: string }>();
  /** The next n calls answer this status (and error name) instead of sending. */
  failNext: { count: number; status: number; name?: string } = { count: 0, status: 500 };
  /** The next n calls never reach Resend: fetch rejects like a dropped connection. */
  dropNext = 0;

  readonly fetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const text = await request.text();
    let body: Record<string, unknown> | null = null;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = null;
    }
    this.requests.push({ method: request.method, url: request.url, headers: request.headers, body });
    if (this.dropNext > 0) {
      this.dropNext -= 1;
      throw new TypeError("Network connection lost.");
    }
    const url = new URL(request.url);
    if (url.host !== "api.resend.com" || url.pathname !== "/emails" || request.method !== "POST") {
      return error(404, "not_found", "The requested endpoint does not exist.");
    }
    const authorization = request.headers.get("Authorization");
    if (!authorization) return error(401, "missing_api_key", "Missing API key in the authorization header.");
    if (authorization !== `Bearer ${FAKE_RESEND_KEY}`) return error(403, "invalid_api_key", "API key is invalid.");
    if (this.failNext.count > 0) {
      this.failNext.count -= 1;
      const { status, name } = this.failNext;
      return error(status, name ?? (status >= 500 ? "internal_server_error" : "validation_error"), "Resend is having a bad day.");
    }
    if (!body) return error(422, "validation_error", "The body must be JSON.");
    for (const field of ["from", "to", "subject"]) {
      if (typeof body[field] !== "string" || !body[field]) {
        return error(422, "missing_required_field", `Missing \`${field}\` field.`);
      }
    }
    if (!body.html && !body.text) return error(422, "missing_required_field", "Missing `html` or `text` field.");

    const key = request.headers.get("Idempotency-Key");
    if (key !== null && (key.length < 1 || key.length > 256)) {
      return error(400, "invalid_idempotency_key", "The key must be between 1-256 chars.");
    }
    const earlier = key ? this.byIdempotencyKey.get(key) : undefined;
    if (earlier) {
      if (earlier.body !== text) {
        return error(409, "invalid_idempotent_request", "Same idempotency key used with a different request payload.");
      }
      return Response.json({ id: earlier.id });
    }
    const id = crypto.randomUUID();
    if (key) this.byIdempotencyKey.set(key, { body: text, id });
    this.delivered.push({
      id,
      from: String(body.from),
      to: String(body.to),
      subject: String(body.subject),
      html: String(body.html ?? ""),
      text: String(body.text ?? ""),
    });
    return Response.json({ id });
  };
}

function error(statusCode: number, name: string, message: string): Response {
  return Response.json({ statusCode, name, message }, { status: statusCode });
}
