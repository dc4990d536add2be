/**
 * HMAC-SHA256 with the session secret: signs upload tickets and hashes client addresses, so
 * neither a forged URL nor a stored IP address is of use to anyone who reads the database.
 */
import type { Env } from "./env.server";
import { sessionSecret } from "./session.server";

const encoder = new TextEncoder();

function hmacKey(env: Env, usages: KeyUsage[]): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(sessionSecret(env)), { name: "HMAC", hash: "SHA-256" }, false, usages);
}

export async function hmacBase64Url(env: Env, message: string): Promise<string> {
  const signature = await crypto.subtle.sign("HMAC", await hmacKey(env, ["sign"]), encoder.encode(message));
  return toBase64Url(new Uint8Array(signature));
}

/** Constant-time check of a base64url signature (crypto.subtle.verify compares, not our code). */
export async function verifyHmacBase64Url(env: Env, message: string, signature: string): Promise<boolean> {
  const bytes = fromBase64Url(signature);
  if (!bytes) return false;
  return crypto.subtle.verify("HMAC", await hmacKey(env, ["verify"]), bytes, encoder.encode(message));
}

function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}
