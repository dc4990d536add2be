/** Formatting helpers (docs/product.md §8), shared by browser and server. */
import { CURRENCY } from "./shop-rules";

const BYTE_UNITS = ["Bytes", "KB", "MB", "GB"] as const;

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 Bytes";
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), BYTE_UNITS.length - 1);
  const value = bytes / 1024 ** exponent;
  return `${Number(value.toFixed(2))} ${BYTE_UNITS[exponent]}`;
}

/** Formats minor units (pence, cents) as money; the shop sells in GBP (docs/product.md §4). */
/** "27 December 2026": a day as customers read it, the same wherever the Worker runs. */
export function formatDay(date: Date): string {
  return date.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}

export function formatMoney(minorUnits: number, currency: string = CURRENCY): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(minorUnits / 100);
}
