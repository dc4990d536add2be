import { Link } from "@remix-run/react";
import { SHOP_NAME } from "~/lib/customer-copy";
import { BookIcon } from "./icons";

/** The shop's mark and name, linking home: the same in every page header. */
export function ShopLogo() {
  return (
    <Link to="/" className="flex items-center gap-2 text-lg font-semibold text-gray-900">
      <span className="flex h-9 w-9 items-center justify-center rounded-lg bg-brand-600 text-white">
        <BookIcon className="h-5 w-5" />
      </span>
      {SHOP_NAME}
    </Link>
  );
}
