import { Link } from "@remix-run/react";

export default function Index() {
  return (
    <main className="mx-auto max-w-4xl px-4 py-16">
      <h1 className="text-4xl font-bold">Turn your photos into a coloring book</h1>
      <Link to="/preview-test" className="mt-6 inline-block rounded-md bg-brand-600 px-4 py-2 text-white">Try a free preview</Link>
    </main>
  );
}
