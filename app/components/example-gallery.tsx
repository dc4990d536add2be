/**
 * The scrolling gallery of docs/product.md §5.1: the example sketches drift sideways in an endless
 * strip (the list is drawn twice, the copy hidden from assistive tech, and the strip slides by
 * exactly one copy). With prefers-reduced-motion it stands still and scrolls by hand instead;
 * hovering pauses the drift, and a button stops it for good (WCAG 2.2.2: moving content that
 * lasts more than five seconds can be paused).
 */
import { useState } from "react";
import type { ExamplePair } from "~/lib/content/examples";

function GalleryItem({ example, copy }: { example: ExamplePair; copy: boolean }) {
  return (
    <li className="w-64 shrink-0 sm:w-80">
      <figure className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-gray-200">
        <img
          src={example.sketchSrc}
          alt={copy ? "" : example.sketchAlt}
          width={example.width}
          height={example.height}
          decoding="async"
          className="aspect-[4/3] w-full bg-white object-contain p-2"
        />
        <figcaption className="border-t border-gray-100 px-4 py-3 text-sm font-medium text-gray-700">
          {example.title}
        </figcaption>
      </figure>
    </li>
  );
}

export function ExampleGallery({ examples }: { examples: readonly ExamplePair[] }) {
  const [paused, setPaused] = useState(false);
  return (
    <div>
      <div
        className="overflow-hidden motion-safe:[mask-image:linear-gradient(to_right,transparent,black_4%,black_96%,transparent)] motion-reduce:overflow-x-auto motion-reduce:px-4"
        data-testid="example-gallery"
      >
        <div
          className="flex w-max gap-6 motion-safe:animate-gallery-scroll hover:[animation-play-state:paused]"
          style={paused ? { animationPlayState: "paused" } : undefined}
        >
          <ul aria-label="Example coloring pages" className="flex gap-6">
            {examples.map((example) => (
              <GalleryItem key={example.slug} example={example} copy={false} />
            ))}
          </ul>
          {/* The second copy only closes the loop of the animation. */}
          <ul aria-hidden="true" className="flex gap-6 motion-reduce:hidden">
            {examples.map((example) => (
              <GalleryItem key={example.slug} example={example} copy />
            ))}
          </ul>
        </div>
      </div>
      <div className="mt-4 flex justify-center motion-reduce:hidden">
        <button
          type="button"
          onClick={() => setPaused((current) => !current)}
          className="rounded-md px-3 py-1.5 text-sm font-medium text-gray-600 hover:bg-gray-100 hover:text-gray-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          {paused ? "Play the gallery" : "Pause the gallery"}
        </button>
      </div>
    </div>
  );
}
