/**
 * Decision 012: a refused upload must leave the client's connection usable. Against the real
 * `wrangler dev`, one keep-alive socket sends a 51-photo upload (refused: 50 is the limit) and
 * then an ordinary request, which must be answered on that same socket.
 */
import http from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, inject, it } from "vitest";
import { ROOT } from "./browser";

interface Answer {
  status: number;
  body: string;
  setCookie: string[];
  reusedSocket: boolean;
}

function send(agent: http.Agent, method: string, url: URL, headers: Record<string, string | number>, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, agent, timeout: 30_000 }, (response) => {
      let text = "";
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, body: text, setCookie: response.headers["set-cookie"] ?? [], reusedSocket: request.reusedSocket }),
      );
    });
    request.on("timeout", () => request.destroy(new Error(`${method} ${url.pathname} timed out`)));
    request.on("error", reject);
    request.end(body);
  });
}

it("answers the next request on the same connection after refusing a 51-photo upload", async () => {
  const base = inject("baseUrl");
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const created = await send(agent, "POST", new URL("/api/books", base), { "Content-Type": "application/json" }, Buffer.from(JSON.stringify({ title: "Keep-alive" })));
    expect(created.status).toBe(201);
    const cookie = created.setCookie[0].split(";")[0];
    const bookId = (JSON.parse(created.body) as { id: number }).id;

    const photo = readFileSync(path.join(ROOT, "test/fixtures/photos/chelsea.jpg"));
    const boundary = `----keepalive${Date.now()}`;
    const parts: Buffer[] = [];
    for (let i = 0; i < 51; i++) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="p${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), photo, Buffer.from("\r\n"));
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    const body = Buffer.concat(parts);
    const refused = await send(agent, "POST", new URL(`/api/books/${bookId}/images`, base), {
      Cookie: cookie,
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      "Content-Length": body.length,
    }, body);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toEqual({ message: "You can upload a maximum of 50 images per book." });

    const next = await send(agent, "GET", new URL(`/api/books/${bookId}/images`, base), { Cookie: cookie });
    expect(next.reusedSocket).toBe(true);
    expect(next.status).toBe(200);
    expect(JSON.parse(next.body)).toEqual([]);
  } finally {
    agent.destroy();
  }
});
