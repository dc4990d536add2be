import type { ReactNode } from "react";

/** The title band at the top of a storefront content page. */
export function PageHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="bg-gradient-to-b from-brand-50 to-gray-50">
      <div className="mx-auto max-w-3xl px-4 pb-8 pt-12 text-center sm:pt-16">
        <h1 className="text-3xl font-bold tracking-tight text-gray-900 sm:text-4xl">{title}</h1>
        {children ? <div className="mt-3 text-lg text-gray-600">{children}</div> : null}
      </div>
    </div>
  );
}
