/**
 * Visitors of the free preview: each has its own cookie session and its own client address
 * (CF-Connecting-IP, which Cloudflare sets in production), so the per-address limits of one
 * test do not spill into another.
 */
import { expect } from "vitest";
import { Visitor } from "./helpers";

let nextAddress = 1;

export interface TicketAnswer {
  data: { urls: { url: string; key: string }[] };
}

export class PreviewVisitor extends Visitor {
  readonly address: string;

  constructor(address?: string) {
    super();
    const n = nextAddress++;
    this.address = address ?? `198.51.${(n >> 8) & 255}.${n & 255}`;
  }

  override fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("CF-Connecting-IP", this.address);
    return super.fetch(path, { ...init, headers });
  }

  tickets(query: string): Promise<Response> {
    return this.fetch(`/api/upload-complete?${query}`);
  }

  async ticket(query = "count=1&sessionId=1732000000000-abc123"): Promise<{ url: string; key: string }> {
    const response = await this.tickets(query);
    expect(response.status, await response.clone().text()).toBe(200);
    return ((await response.json()) as TicketAnswer).data.urls[0];
  }

  put(url: string, body: BodyInit, filename?: string): Promise<Response> {
    return this.fetch(url, { method: "PUT", body, headers: filename ? { "X-Filename": encodeURIComponent(filename) } : {} });
  }

  /** Ticket, upload and answer the key: a photo ready to convert. */
  async uploaded(bytes: Uint8Array<ArrayBuffer>, filename = "photo.png"): Promise<string> {
    const { url, key } = await this.ticket();
    const response = await this.put(url, bytes, filename);
    expect(response.status, await response.clone().text()).toBe(200);
    return key;
  }
}

export function dataUrl(bytes: Uint8Array, type = "image/png"): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${type};base64,${btoa(binary)}`;
}
