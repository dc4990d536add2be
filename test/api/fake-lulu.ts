/**
 * A stand-in for Lulu's Print API, handed to our Lulu client as its fetch function (nothing
 * leaves the machine; the sandbox cannot be reached from here). It answers the calls we make as
 * Lulu's documentation describes them (docs/decisions/028): the client-credentials token, the
 * print-job look-up by external id and the job creation, the cover dimensions of a product and
 * page count, the job cost calculation, checks the bearer token, and can be
 * told to expire tokens, refuse with a validation message, fail with a 5xx, or hang past the
 * client's time-out (and still make the job, as a lost answer would).
 */
export const FAKE_LULU_BASE = "https://api.sandbox.lulu.com";

export interface FakeJob {
  id: number;
  external_id: string;
  status: { name: string; changed: string; messages: Record<string, unknown> };
  body: Record<string, unknown>;
}

export class FakeLulu {
  readonly calls: { method: string; path: string }[] = [];
  readonly jobs: FakeJob[] = [];
  private readonly validTokens = new Set<string>();
  private issued = 0;
  /** The lifetime the token endpoint states (`expires_in`, seconds). */
  tokenLifetimeSeconds = 3600;
  /** The next n print-job creations answer this. */
  failCreate: { count: number; status: number; body: unknown } = { count: 0, status: 500, body: {} };
  /** The next n print-job creations make the job but never answer (the client times out). */
  hangCreate = 0;
  /** What /cover-dimensions/ answers (points): a coil-bound letter book's by default. */
  coverSize = { widthPt: 1242, heightPt: 810 };
  /** The bodies of the cover-dimensions and cost-calculation requests, as sent. */
  readonly coverRequests: Record<string, unknown>[] = [];
  readonly costRequests: Record<string, unknown>[] = [];

  constructor(readonly clientKey = "fake-key", readonly clientSecret = "fake-secret") {}

  get tokenRequests() {
    return this.calls.filter((call) => call.path.startsWith("/auth/")).length;
  }
  get creations() {
    return this.calls.filter((call) => call.method === "POST" && call.path === "/print-jobs/").length;
  }

  /** Lulu's side: every token issued so far stops working (their expiry, not our clock). */
  expireTokens(): void {
    this.validTokens.clear();
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
    const method = init?.method ?? "GET";
    const headers = new Headers(init?.headers);
    this.calls.push({ method, path: url.pathname });
    if (url.origin !== FAKE_LULU_BASE) return json(404, { detail: "wrong host" });

    if (url.pathname === "/auth/realms/glasstree/protocol/openid-connect/token") {
      const expected = `Basic ${btoa(`${this.clientKey}:${this.clientSecret}`)}`;
      if (method !== "POST" || headers.get("Authorization") !== expected || String(init?.body) !== "grant_type=client_credentials") {
        return json(401, { error: "unauthorized_client" });
      }
      const token = `token-${++this.issued}`;
      this.validTokens.add(token);
      return json(200, { access_token: token, expires_in: this.tokenLifetimeSeconds, token_type: "Bearer" });
    }

    const bearer = headers.get("Authorization")?.replace(/^Bearer /, "") ?? "";
    if (!this.validTokens.has(bearer)) return json(401, { detail: "Authentication credentials were not provided or are expired." });

    if (method === "POST" && url.pathname === "/cover-dimensions/") {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      this.coverRequests.push(body);
      if (typeof body.pod_package_id !== "string" || !Number.isInteger(body.interior_page_count)) {
        return json(400, { interior_page_count: ["A valid integer is required."] });
      }
      return json(201, { width: this.coverSize.widthPt.toFixed(3), height: this.coverSize.heightPt.toFixed(3), unit: "pt" });
    }
    if (method === "POST" && url.pathname === "/print-job-cost-calculations/") {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      this.costRequests.push(body);
      return json(201, {
        currency: "USD",
        line_item_costs: [{ cost_excl_discounts: "18.20", quantity: 2, total_cost_excl_tax: "18.20", total_cost_incl_tax: "18.20", total_tax: "0.00" }],
        shipping_cost: { total_cost_excl_tax: "4.50", total_cost_incl_tax: "5.40", total_tax: "0.90", tax_rate: "0.200000" },
        total_cost_excl_tax: "22.70",
        total_cost_incl_tax: "23.60",
        total_tax: "0.90",
      });
    }
    if (method === "GET" && url.pathname === "/print-jobs/") {
      const externalId = url.searchParams.get("external_id");
      const results = this.jobs.filter((job) => job.external_id === externalId).map(publicJob);
      return json(200, { count: results.length, next: null, previous: null, results });
    }
    if (method === "POST" && url.pathname === "/print-jobs/") {
      if (this.failCreate.count > 0) {
        this.failCreate.count -= 1;
        return json(this.failCreate.status, this.failCreate.body);
      }
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      const job: FakeJob = {
        id: 1000 + this.jobs.length + 1,
        external_id: String(body.external_id),
        status: { name: "CREATED", changed: new Date().toISOString(), messages: {} },
        body,
      };
      this.jobs.push(job);
      if (this.hangCreate > 0) {
        this.hangCreate -= 1;
        // Made, but the answer never comes: the caller's time-out aborts the wait.
        return new Promise<Response>((_, reject) => {
          init?.signal?.addEventListener("abort", () => reject(init.signal!.reason));
        });
      }
      return json(201, publicJob(job));
    }
    return json(404, { detail: "Not found." });
  };
}

function publicJob(job: FakeJob) {
  return { id: job.id, external_id: job.external_id, status: job.status, line_items: job.body.line_items };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}
