/**
 * The Lulu Print API as our print partner (docs/decisions/028 has what its documentation says).
 * OAuth2 client credentials for a bearer token, cached until shortly before it expires; a job
 * is looked up by our external id before one is created, because Lulu itself keeps no
 * idempotency key. Tests hand in a fake of the API as `fetchFn` (nothing leaves the machine).
 */
import { PRINT_PARTNER_TIMEOUT_MS, PRINT_TOKEN_RENEW_MARGIN_SECONDS } from "~/lib/shop-rules";
import type { CustomerInfo } from "~/core/db/schema.server";
import {
  PrintJobRefusedError,
  PrintPartnerUnavailableError,
  type PartnerJob,
  type PrintCost,
  type PrintCostRequest,
  type PrintJobRequest,
  type PrintPartner,
} from "./print-partner.server";
import type { CoverSize } from "~/core/contracts/print";

export const LULU_PRODUCTION_API = "https://api.lulu.com";
export const LULU_SANDBOX_API = "https://api.sandbox.lulu.com";
/**
 * 8.5 x 11 in, premium black and white, coil bound, 80# coated white (about 118 gsm, the nearest
 * Lulu paper to the 120 gsm the order page names), matte cover (decision 028).
 */
export const LULU_COIL_BOUND_LETTER_BW = "0850X1100.BW.PRE.CO.080CW444.MXX";
export const LULU_DEFAULT_SHIPPING_LEVEL = "MAIL";
const TOKEN_PATH = "/auth/realms/glasstree/protocol/openid-connect/token";

export interface LuluConfig {
  clientKey: string;
  clientSecret: string;
  apiBase: string;
  podPackageId: string;
  shippingLevel: string;
  contactEmail: string;
  contactPhone: string;
  timeoutMs?: number;
}

interface CachedToken {
  accessToken: string;
  /** Epoch ms after which it is renewed. */
  renewAt: number;
}

/** Per isolate, per account: a token serves many jobs until it is about to expire. */
const tokens = new Map<string, CachedToken>();

export function luluPartner(config: LuluConfig, fetchFn: typeof fetch = fetch, clock: () => number = Date.now): PrintPartner {
  const timeoutMs = config.timeoutMs ?? PRINT_PARTNER_TIMEOUT_MS;
  const cacheKey = `${config.apiBase} ${config.clientKey}`;

  async function call(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetchFn(`${config.apiBase}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      // A time-out or a network error: the job may or may not exist; the retry looks it up first.
      throw new PrintPartnerUnavailableError(`Lulu ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async function token(): Promise<string> {
    const cached = tokens.get(cacheKey);
    if (cached && cached.renewAt > clock()) return cached.accessToken;
    const response = await call(TOKEN_PATH, {
      method: "POST",
      headers: {
        Authorization: `Basic ${btoa(`${config.clientKey}:${config.clientSecret}`)}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials",
    });
    if (!response.ok) {
      // Wrong keys are ours to fix, not the job's: retried, and the dead letter marks the order.
      throw new PrintPartnerUnavailableError(`Lulu token: ${response.status} ${await response.text().catch(() => "")}`.trim());
    }
    const body = (await response.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw new PrintPartnerUnavailableError("Lulu token: no access_token in the answer");
    const lifetimeSeconds = Math.max(0, (body.expires_in ?? 0) - PRINT_TOKEN_RENEW_MARGIN_SECONDS);
    tokens.set(cacheKey, { accessToken: body.access_token, renewAt: clock() + lifetimeSeconds * 1000 });
    return body.access_token;
  }

  /** One API call with the bearer token; a 401 (the token expired early) fetches a new one, once. */
  async function authorized(path: string, init: RequestInit = {}): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      const headers = new Headers(init.headers);
      headers.set("Authorization", `Bearer ${await token()}`);
      const response = await call(path, { ...init, headers });
      if (response.status !== 401 || attempt === 2) return response;
      tokens.delete(cacheKey);
    }
  }

  async function findJob(externalId: string): Promise<PartnerJob | null> {
    const response = await authorized(`/print-jobs/?external_id=${encodeURIComponent(externalId)}`);
    if (!response.ok) throw await failure("look-up", response);
    const body = (await response.json()) as { results?: LuluJob[] };
    const found = body.results?.find((job) => job.external_id === externalId);
    return found ? partnerJob(found) : null;
  }

  return {
    name: "lulu",
    webhookSecret: config.clientSecret,
    async submitJob(request: PrintJobRequest): Promise<PartnerJob> {
      const existing = await findJob(request.externalId);
      if (existing) return existing;
      const response = await authorized("/print-jobs/", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(luluJobBody(config, request)),
      });
      if (!response.ok) throw await failure("print job", response);
      return partnerJob((await response.json()) as LuluJob);
    },
    /** `POST /cover-dimensions/`, in points: the one-piece cover with its bleed, never a guess. */
    async coverSize(interiorPageCount: number): Promise<CoverSize> {
      const response = await authorized("/cover-dimensions/", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ pod_package_id: config.podPackageId, interior_page_count: interiorPageCount, unit: "pt" }),
      });
      if (!response.ok) throw await failure("cover dimensions", response);
      const body = (await response.json()) as { width?: string | number; height?: string | number; unit?: string };
      const widthPt = Number(body.width);
      const heightPt = Number(body.height);
      if (body.unit !== "pt" || !(widthPt > 0) || !(heightPt > 0)) {
        throw new PrintPartnerUnavailableError(`Lulu cover dimensions: an answer we cannot use: ${JSON.stringify(body).slice(0, 200)}`);
      }
      return { widthPt, heightPt };
    },
    /** `POST /print-job-cost-calculations/`: the job's total as Lulu will charge it, tax included. */
    async jobCost(request: PrintCostRequest): Promise<PrintCost> {
      const response = await authorized("/print-job-cost-calculations/", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          line_items: [{ page_count: request.interiorPageCount, pod_package_id: config.podPackageId, quantity: request.quantity }],
          shipping_address: luluShippingAddress(config, request.shipTo),
          shipping_option: config.shippingLevel,
        }),
      });
      if (!response.ok) throw await failure("cost calculation", response);
      const body = (await response.json()) as { currency?: string; total_cost_incl_tax?: string | number };
      return { currency: body.currency ?? "?", totalInclTax: String(body.total_cost_incl_tax ?? "?") };
    },
  };
}

interface LuluJob {
  id: number | string;
  external_id?: string | null;
  status?: { name?: string };
}

function partnerJob(job: LuluJob): PartnerJob {
  return { id: String(job.id), status: job.status?.name ?? "CREATED" };
}

/** Lulu wants ISO 3166 codes; our delivery form says UK for the United Kingdom. */
function countryCode(country: string): string {
  return country === "UK" ? "GB" : country;
}

export function luluJobBody(config: Pick<LuluConfig, "podPackageId" | "shippingLevel" | "contactEmail" | "contactPhone">, request: PrintJobRequest) {
  const to: CustomerInfo = request.shipTo;
  return {
    external_id: request.externalId,
    contact_email: config.contactEmail,
    shipping_level: config.shippingLevel,
    line_items: [
      {
        external_id: request.externalId,
        title: request.title,
        quantity: request.quantity,
        printable_normalization: {
          pod_package_id: config.podPackageId,
          interior: { source_url: request.interiorUrl },
          cover: { source_url: request.coverUrl },
        },
      },
    ],
    shipping_address: luluShippingAddress(config, to),
  };
}

function luluShippingAddress(config: Pick<LuluConfig, "contactPhone">, to: CustomerInfo) {
  return {
    name: `${to.firstName} ${to.lastName}`.trim(),
    street1: to.address1,
    ...(to.address2 ? { street2: to.address2 } : {}),
    city: to.city,
    postcode: to.zipCode,
    country_code: countryCode(to.country),
    // Lulu needs it for the US and Canada; the delivery form asks for it there (decision 032).
    ...(to.stateCode ? { state_code: to.stateCode } : {}),
    email: to.email,
    // The customer's, for the carrier; orders placed before the form asked for one send the shop's.
    phone_number: to.phone || config.contactPhone,
  };
}

/** 5xx and 429: try again later. Any other 4xx: Lulu will not print this job; its message says why. */
async function failure(what: string, response: Response): Promise<Error> {
  const text = await response.text().catch(() => "");
  if (response.status >= 500 || response.status === 429 || response.status === 401) {
    return new PrintPartnerUnavailableError(`Lulu ${what}: ${response.status} ${text.slice(0, 300)}`.trim());
  }
  return new PrintJobRefusedError(refusalReason(text) || `Lulu answered ${response.status}`);
}

/**
 * Lulu's validation errors are JSON keyed by field, nested as the request is
 * (`{"shipping_address": {"postcode": ["This field is required."]}}`): flattened to
 * `shipping_address.postcode: This field is required.` for the desk.
 */
export function refusalReason(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text.slice(0, 500);
  }
  const lines: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (typeof value === "string") lines.push(path ? `${path}: ${value}` : value);
    else if (Array.isArray(value)) value.forEach((item, index) => walk(item, typeof item === "object" && item !== null ? `${path}.${index}` : path));
    else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) walk(inner, path ? `${path}.${key}` : key);
    }
  };
  walk(body, "");
  return lines.join("; ").slice(0, 500);
}

/** Tests start each case with no cached token. */
export function forgetLuluTokens(): void {
  tokens.clear();
}
