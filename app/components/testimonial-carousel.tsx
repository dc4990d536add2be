/**
 * The paged testimonial carousel of docs/product.md §5.1: a page of quotes at a time, Previous/Next
 * and one dot per page. Nothing moves by itself, so no quote disappears while it is being read.
 */
import { useId, useState } from "react";
import type { Testimonial } from "~/lib/content/testimonials";
import { ArrowLeftIcon, ArrowRightIcon } from "./icons";

const arrowButton =
  "inline-flex h-10 w-10 items-center justify-center rounded-full border border-gray-300 bg-white text-gray-700 shadow-sm transition hover:bg-gray-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-40";

export function TestimonialCarousel({ testimonials, perPage }: { testimonials: readonly Testimonial[]; perPage: number }) {
  const [page, setPage] = useState(0);
  const pageCount = Math.max(1, Math.ceil(testimonials.length / perPage));
  const shown = testimonials.slice(page * perPage, page * perPage + perPage);
  const listId = useId();

  return (
    <div aria-roledescription="carousel" aria-label="What our customers say" role="region">
      <ul
        id={listId}
        aria-live="polite"
        aria-label={`Testimonials, page ${page + 1} of ${pageCount}`}
        className="grid gap-6 md:grid-cols-3"
      >
        {shown.map((testimonial) => (
          <li key={testimonial.name} className="flex">
            <figure className="flex w-full flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-200">
              <svg viewBox="0 0 24 24" aria-hidden="true" className="h-6 w-6 fill-brand-500/40">
                <path d="M9.5 6C6.5 7.2 5 9.6 5 13v5h6v-6H8c0-2 .9-3.4 2.5-4.2L9.5 6Zm9 0c-3 1.2-4.5 3.6-4.5 7v5h6v-6h-3c0-2 .9-3.4 2.5-4.2L18.5 6Z" />
              </svg>
              <blockquote className="mt-3 flex-1 text-gray-700">
                <p>{testimonial.quote}</p>
              </blockquote>
              <figcaption className="mt-5 border-t border-gray-100 pt-4">
                <span className="block font-semibold text-gray-900">{testimonial.name}</span>
                <span className="block text-sm text-gray-500">{testimonial.detail}</span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>

      <div className="mt-8 flex items-center justify-center gap-4">
        <button
          type="button"
          className={arrowButton}
          aria-label="Previous testimonials"
          aria-controls={listId}
          disabled={page === 0}
          onClick={() => setPage((current) => Math.max(0, current - 1))}
        >
          <ArrowLeftIcon />
        </button>
        <div className="flex items-center gap-2">
          {Array.from({ length: pageCount }, (_, index) => (
            <button
              key={index}
              type="button"
              aria-label={`Show testimonials page ${index + 1} of ${pageCount}`}
              aria-controls={listId}
              aria-current={index === page ? "true" : undefined}
              onClick={() => setPage(index)}
              className="flex h-6 w-6 items-center justify-center rounded-full focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <span className={`block h-2.5 rounded-full transition-all ${index === page ? "w-6 bg-brand-600" : "w-2.5 bg-gray-300"}`} />
            </button>
          ))}
        </div>
        <button
          type="button"
          className={arrowButton}
          aria-label="Next testimonials"
          aria-controls={listId}
          disabled={page === pageCount - 1}
          onClick={() => setPage((current) => Math.min(pageCount - 1, current + 1))}
        >
          <ArrowRightIcon />
        </button>
      </div>
    </div>
  );
}
