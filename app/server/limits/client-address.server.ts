/**
 * The client address every per-address limit counts against (decisions 009 and 012). An IPv4
 * address is one household or office behind one router (or, behind a carrier's NAT, many:
 * decision 024); an IPv6 client is handed a whole /64 (2^64 addresses it may rotate
 * through at will), so IPv6 is keyed on its /64, and its /48 is counted as well.
 */

import { isLocalEnvironment, type Env } from "~/server/http/env.server";

/** Set by Cloudflare on every request it forwards; a client cannot forge it there. */
const CLIENT_ADDRESS_HEADER = "CF-Connecting-IP";

/**
 * The address a local tool presents for its client (`npm run load` gives each visitor its own),
 * honoured only under `npm run dev` and the tests, where every request comes from 127.0.0.1. In
 * production anyone could send it, so there it is ignored: only Cloudflare's header counts.
 */
export const LOCAL_CLIENT_ADDRESS_HEADER = "X-Local-Client-Address";

/** The request's client address, or null when it did not come through Cloudflare. */
export function clientAddressOf(env: Pick<Env, "APP_ENV">, request: Request): string | null {
  const presented = isLocalEnvironment(env) ? request.headers.get(LOCAL_CLIENT_ADDRESS_HEADER)?.trim() : undefined;
  return presented || request.headers.get(CLIENT_ADDRESS_HEADER)?.trim() || null;
}

/** The limit key of the request's client, or null when it did not come through Cloudflare. */
export function clientAddressKeyOf(env: Pick<Env, "APP_ENV">, request: Request): string | null {
  const address = clientAddressOf(env, request);
  return address ? addressLimitKey(address) : null;
}

/**
 * The wider block an IPv6 client's /64 belongs to, its /48 (`2001:db8:1::/48`): a site, as
 * providers delegate them, which holds 65,536 /64s. Counted with its own, larger cap
 * (decision 024), so rotating through the /64s of one /48 gains nothing. Null for IPv4 (and
 * for anything that does not parse), which has no wider block of one owner.
 */
export function addressBlockKey(address: string): string | null {
  const text = address.trim().toLowerCase();
  if (!text.includes(":")) return null;
  const hextets = ipv6Hextets(text);
  if (!hextets || (hextets.slice(0, 5).every((hextet) => hextet === 0) && hextets[5] === 0xffff)) return null;
  return `${hextets.slice(0, 3).map((hextet) => hextet.toString(16)).join(":")}::/48`;
}

/**
 * IPv4 whole; IPv6 as its /64 (`2001:db8:1:2::/64`), an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`,
 * as a dual-stack socket reports an IPv4 client) as that IPv4 address. Anything that does not
 * parse is its own key, as it is.
 */
export function addressLimitKey(address: string): string {
  const text = address.trim().toLowerCase();
  if (!text.includes(":")) return text;
  const hextets = ipv6Hextets(text);
  if (!hextets) return text;
  if (hextets.slice(0, 5).every((hextet) => hextet === 0) && hextets[5] === 0xffff) {
    return [hextets[6] >> 8, hextets[6] & 0xff, hextets[7] >> 8, hextets[7] & 0xff].join(".");
  }
  return `${hextets.slice(0, 4).map((hextet) => hextet.toString(16)).join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (`::` compression, a trailing dotted quad, a zone), or null. */
function ipv6Hextets(text: string): number[] | null {
  const halves = text.split("%")[0].split("::");
  if (halves.length > 2) return null;
  const head = groupsOf(halves[0], halves.length === 1);
  const tail = halves.length === 2 ? groupsOf(halves[1], true) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : null;
}

/** Colon-separated hex groups; a dotted quad may end the address (`mayEndInIpv4`) as two groups. */
function groupsOf(part: string, mayEndInIpv4: boolean): number[] | null {
  if (part === "") return [];
  const groups = part.split(":");
  const values: number[] = [];
  for (const [index, group] of groups.entries()) {
    if (mayEndInIpv4 && index === groups.length - 1 && group.includes(".")) {
      const octets = ipv4Octets(group);
      if (!octets) return null;
      values.push((octets[0] << 8) | octets[1], (octets[2] << 8) | octets[3]);
    } else if (/^[0-9a-f]{1,4}$/.test(group)) {
      values.push(parseInt(group, 16));
    } else {
      return null;
    }
  }
  return values;
}

function ipv4Octets(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^[0-9]{1,3}$/.test(part) && Number(part) <= 255)) return null;
  return parts.map(Number);
}
