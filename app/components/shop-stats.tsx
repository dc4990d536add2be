/**
 * The landing page's live counters from GET /api/get-stats (docs/product.md §5.1): '...' while they
 * load; if the call fails the failure is only logged and the counters stay 0.
 */
import { useEffect, useState } from "react";
import { getShopStats } from "~/lib/api-client";
import { type ShopStats } from "~/lib/api-types";
import { STATS_LABELS, STATS_LOADING_TEXT } from "~/lib/customer-copy";

const NO_STATS: ShopStats = { booksCreated: 0, happyFamilies: 0, photosConverted: 0 };
const ORDER = ["booksCreated", "happyFamilies", "photosConverted"] as const;

export function ShopStatsCounters() {
  const [stats, setStats] = useState<ShopStats>(NO_STATS);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    let current = true;
    getShopStats()
      .then((loaded) => current && setStats(loaded))
      .catch((error: unknown) => console.error("Could not load the shop statistics", error))
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, []);

  return (
    <dl aria-busy={loading} className="grid grid-cols-3 gap-3 sm:gap-4" data-testid="shop-stats">
      {ORDER.map((key) => (
        <div key={key} className="rounded-xl bg-white px-2 py-4 text-center shadow-sm ring-1 ring-gray-200 sm:px-6 sm:py-5">
          <dt className="text-xs font-medium text-gray-600 sm:text-sm">{STATS_LABELS[key]}</dt>
          <dd className="mt-1 text-2xl font-bold tracking-tight text-brand-700 tabular-nums sm:text-3xl">
            {loading ? STATS_LOADING_TEXT : stats[key].toLocaleString("en-GB")}
          </dd>
        </div>
      ))}
    </dl>
  );
}
