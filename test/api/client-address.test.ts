/**
 * Decision 012: one client with an IPv6 /64 has 2^64 addresses, so per-address limits key
 * IPv6 on its /64 (IPv4 whole, an IPv4-mapped IPv6 address as its IPv4 address).
 */
import { describe, expect, it } from "vitest";
import { addressLimitKey } from "~/server/limits/client-address.server";

describe("addressLimitKey", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:ffff:ffff:ffff:fffe", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["2001:db8:1:2:3:4:198.51.100.1", "2001:db8:1:2::/64"],
    ["::1", "0:0:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["::FFFF:cb00:7107", "203.0.113.7"],
    ["0:0:0:0:0:ffff:203.0.113.7", "203.0.113.7"],
  ])("keys %s as %s", (address, key) => {
    expect(addressLimitKey(address)).toBe(key);
  });

  it("keeps two /64s apart, and whatever is not an address as it is", () => {
    expect(addressLimitKey("2001:db8:1:2::1")).not.toBe(addressLimitKey("2001:db8:1:3::1"));
    expect(addressLimitKey("not an address")).toBe("not an address");
    expect(addressLimitKey("2001:db8::1::2")).toBe("2001:db8::1::2");
  });
});
