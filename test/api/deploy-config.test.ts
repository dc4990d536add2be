/**
 * docs/design.md §7: on workers.dev (and on a version's preview URL there) a Worker answers outside
 * the zone and so outside its rules (WAF, rate limiting rules, Access); the Cache API stores
 * nothing there either. Both Workers are reached only through the zone (the sketch Worker only
 * through its bindings).
 */
import { describe, expect, it } from "vitest";
import appConfig from "../../wrangler.toml?raw";
import sketchConfig from "../../workers/sketch/wrangler.toml?raw";

/** A top-level `key = value` of a wrangler.toml (before its first [table]). */
function topLevel(toml: string, key: string): string | undefined {
  const head = toml.split(/^\[/m)[0];
  return new RegExp(`^${key}\\s*=\\s*(\\S+)`, "m").exec(head)?.[1];
}

describe("deployment", () => {
  it.each([
    ["the app Worker", appConfig],
    ["the sketch Worker", sketchConfig],
  ])("keeps %s off workers.dev and its preview URLs", (_name, toml) => {
    expect(topLevel(toml, "workers_dev")).toBe("false");
    expect(topLevel(toml, "preview_urls")).toBe("false");
  });
});
