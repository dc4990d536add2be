/**
 * The scrolling gallery of SPEC section 1: the example sketches drift sideways in an endless
 * strip (the list is drawn twice, the copy hidden from assistive tech, and the strip slides by
 * exactly one copy). With prefers-reduced-motion it stands still and scrolls by hand instead;
 * hovering or focusing it pauses the drift.
 */
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
  return (
    <div className="overflow-hidden motion-reduce:overflow-x-auto motion-reduce:px-4" data-testid="example-gallery">
      <div className="flex w-max gap-6 motion-safe:animate-gallery-scroll hover:[animation-play-state:paused] focus-within:[animation-play-state:paused]">
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
  );
}
