import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { BookPageHeader, StepNavigation } from "~/components/book-page-header";
import { buttonStyles } from "~/components/button-styles";
import { AlertIcon, ArrowLeftIcon, ArrowRightIcon, BookIcon, ImageIcon } from "~/components/icons";
import { BookDetailPicker } from "~/components/detail-level-picker";
import { ImageCard, isBeingDrawn } from "~/components/image-card";
import { PhotoRangeNote } from "~/components/photo-range-note";
import { ProgressBar } from "~/components/progress-bar";
import { Spinner } from "~/components/spinner";
import { useToast } from "~/components/toast";
import { apiErrorMessage, getBookProgress, listBookImages, retryImage, setBookDetailLevel, setImageSelection, setPageDetailLevel } from "~/lib/api-client";
import { type BookProgress, type ImageDto } from "~/lib/api-types";
import { bookPageCount, photoCountAdvice, planOfBook } from "~/lib/pricing";
import { BOOK_PAGE_MESSAGES, CREATE_BOOK_MESSAGES, DETAIL_LEVEL_MESSAGES, LABELS, MESSAGES, SHOP_NAME } from "~/lib/customer-copy";
import { HIGH_QUALITY_SCORE, POLL_INTERVAL_MS } from "~/lib/shop-rules";
import { type DetailLevel } from "~/core/engine-limits";
import { loadVisitorBook } from "~/server/books/book-pages.server";
import { database } from "~/core/db/database.server";
import { bookDetailSettings, redrawOlderEnginePages } from "~/server/books/detail-levels.server";
import { drawWaitingPhotos } from "~/server/books/books.server";

export const meta: MetaFunction = () => [{ title: `Choose your sketches – ${SHOP_NAME}` }];

/** The bulk selection tools (shown once every image is done): which images each one keeps selected. */
const BULK_TOOLS: { label: string; keeps: (image: ImageDto) => boolean }[] = [
  { label: LABELS.selectAll, keeps: () => true },
  { label: LABELS.deselectAll, keeps: () => false },
  // docs/product.md §5.8: completed images scoring 90 or more (applySelections only ever touches completed ones).
  { label: LABELS.selectHighQualityOnly, keeps: (image) => (image.qualityScore ?? 0) >= HIGH_QUALITY_SCORE },
];

export async function loader({ params, context }: LoaderFunctionArgs) {
  const book = await loadVisitorBook(context, params.id);
  const db = database(context.cloudflare.env.DB);
  // Opened from the history or a bookmark, the upload page's Next may never have been pressed.
  const sentToDraw = await drawWaitingPhotos(context.cloudflare.env, db, book.id);
  await redrawOlderEnginePages(context.cloudflare.env, db, book.id);
  return json({ ...book, sentToDraw, ...(await bookDetailSettings(db, book.id)) });
}

type Filter = "all" | "selected" | "unselected";
const FILTERS: { id: Filter; label: string }[] = [
  { id: "all", label: "All" },
  { id: "selected", label: "Selected" },
  { id: "unselected", label: "Unselected" },
];

const isInProgress = isBeingDrawn;
const isDone = (image: ImageDto) => !isBeingDrawn(image) && (image.processingStatus === "completed" || image.processingStatus === "failed");

export default function PreviewPage() {
  const book = useLoaderData<typeof loader>();
  const toast = useToast();
  const navigate = useNavigate();
  const [images, setImages] = useState<ImageDto[] | null>(null);
  const [progress, setProgress] = useState<BookProgress | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [filter, setFilter] = useState<Filter>("all");
  // Selections still on their way to the server win over what a poll brings back meanwhile.
  const pendingSelections = useRef(new Map<number, boolean>());
  const [bookLevel, setBookLevel] = useState<DetailLevel>(book.detailLevel);
  const [savingBookLevel, setSavingBookLevel] = useState(false);
  // Pages with a level change or retry on its way to the server.
  const [busyImages, setBusyImages] = useState<ReadonlySet<number>>(new Set());
  // Bumped by each level change or retry: a poll that started before one may bring back the page
  // as it was, so its answer is dropped rather than undo what the change just showed.
  const changeCount = useRef(0);

  const withPendingSelections = useCallback(
    (list: ImageDto[]) =>
      list.map((image) => {
        const pending = pendingSelections.current.get(image.id);
        return pending === undefined ? image : { ...image, isSelected: pending };
      }),
    [],
  );

  const loadImages = useCallback(async () => {
    const changesBefore = changeCount.current;
    try {
      const list = await listBookImages(book.id);
      if (changesBefore !== changeCount.current) return list;
      setImages(withPendingSelections(list));
      setLoadError(null);
      return list;
    } catch (error) {
      setLoadError(apiErrorMessage(error, error instanceof Error ? error.message : BOOK_PAGE_MESSAGES.photosNotLoaded));
      return null;
    }
  }, [book.id, withPendingSelections]);

  const loadProgress = useCallback(async () => {
    try {
      setProgress(await getBookProgress(book.id));
    } catch {
      // The bar falls back to counting the image list.
    }
  }, [book.id]);

  useEffect(() => {
    loadImages().then((list) => {
      if (list?.some(isInProgress)) loadProgress();
    });
  }, [loadImages, loadProgress]);

  // docs/product.md §5.8: poll every 2000 ms, and only while some image is pending or processing.
  const inProgress = images?.some(isInProgress) ?? false;
  useEffect(() => {
    if (!inProgress) return;
    const timer = setInterval(() => {
      loadImages();
      loadProgress();
    }, POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [inProgress, loadImages, loadProgress]);

  async function applySelections(changes: { image: ImageDto; isSelected: boolean }[]) {
    const changing = changes.filter((c) => c.image.processingStatus === "completed" && c.image.isSelected !== c.isSelected);
    if (changing.length === 0) return;
    for (const c of changing) pendingSelections.current.set(c.image.id, c.isSelected);
    const wanted = new Map(changing.map((c) => [c.image.id, c.isSelected]));
    setImages((list) => list?.map((image) => (wanted.has(image.id) ? { ...image, isSelected: wanted.get(image.id)! } : image)) ?? list);

    const results = await Promise.allSettled(changing.map((c) => setImageSelection(c.image.id, c.isSelected)));
    let firstError: unknown = null;
    const settled = new Map<number, boolean>();
    results.forEach((result, index) => {
      const { image } = changing[index];
      pendingSelections.current.delete(image.id);
      if (result.status === "fulfilled") settled.set(image.id, result.value.isSelected);
      else {
        settled.set(image.id, image.isSelected);
        firstError ??= result.reason;
      }
    });
    setImages((list) => list?.map((image) => (settled.has(image.id) ? { ...image, isSelected: settled.get(image.id)! } : image)) ?? list);
    if (firstError) {
      toast({
        title: BOOK_PAGE_MESSAGES.errorTitle,
        description: apiErrorMessage(firstError, MESSAGES.selectionFailed),
        variant: "destructive",
      });
    }
  }

  /** The last progress counted the pages before they went back into the queue: count again. */
  function restartProgress() {
    setProgress(null);
    loadProgress();
  }

  function showImage(updated: ImageDto) {
    setImages((list) => list?.map((image) => (image.id === updated.id ? withPendingSelections([updated])[0] : image)) ?? list);
  }

  /** A level change or retry of one page: the page is busy meanwhile, and a failure is a toast. */
  async function changePage(image: ImageDto, change: () => Promise<ImageDto>, failure: string, success?: string) {
    changeCount.current++;
    setBusyImages((busy) => new Set(busy).add(image.id));
    try {
      const updated = await change();
      showImage(updated);
      if (isInProgress(updated)) restartProgress();
      if (success) toast({ title: success });
    } catch (error) {
      toast({ title: BOOK_PAGE_MESSAGES.errorTitle, description: apiErrorMessage(error, failure), variant: "destructive" });
    } finally {
      changeCount.current++;
      setBusyImages((busy) => {
        const rest = new Set(busy);
        rest.delete(image.id);
        return rest;
      });
    }
  }

  async function changeBookLevel(level: DetailLevel) {
    if (level === bookLevel || savingBookLevel) return;
    const previous = bookLevel;
    changeCount.current++;
    setBookLevel(level);
    setSavingBookLevel(true);
    try {
      const answer = await setBookDetailLevel(book.id, level);
      setBookLevel(answer.detailLevel);
      setImages(withPendingSelections(answer.images));
      if (answer.redrawing > 0) restartProgress();
      toast({
        title: answer.redrawing > 0 ? DETAIL_LEVEL_MESSAGES.pagesRedrawing(answer.redrawing) : DETAIL_LEVEL_MESSAGES.nothingToRedraw,
      });
    } catch (error) {
      setBookLevel(previous);
      toast({
        title: BOOK_PAGE_MESSAGES.errorTitle,
        description: apiErrorMessage(error, DETAIL_LEVEL_MESSAGES.changeFailed),
        variant: "destructive",
      });
    } finally {
      changeCount.current++;
      setSavingBookLevel(false);
    }
  }

  const list = images ?? [];
  // Pages are numbered by their place in the book, whatever the filter shows.
  const pageNumbers = new Map(list.map((image, index) => [image.id, index + 1]));
  const selectedCount = list.filter((image) => image.isSelected).length;
  const allDone = list.length > 0 && list.every(isDone);
  const canCreate = allDone && selectedCount >= 1;
  const processed = progress?.processedImages ?? list.filter(isDone).length;
  const total = progress?.totalImages ?? list.length;
  const visible = list.filter((image) =>
    filter === "all" ? true : filter === "selected" ? image.isSelected : !image.isSelected,
  );
  const counts: Record<Filter, number> = { all: list.length, selected: selectedCount, unselected: list.length - selectedCount };
  // Until the list arrives (and in the server's HTML) the loader's counts stand in for it.
  const selectedForPlan = images ? selectedCount : book.selectedImageCount;
  const usable = images ? list.filter((image) => image.processingStatus !== "failed").length : book.usableImageCount;
  const hasPhotos = images ? list.length > 0 : book.imageCount > 0;
  const plan = planOfBook(book.bookType, selectedForPlan);
  const goToOrder = () => navigate(`/book/${book.id}/order`);

  return (
    <>
      <BookPageHeader step="preview" />
      <main className="mx-auto max-w-6xl px-4 py-8 sm:py-10">
        <div className="mb-6">
          <p className="text-sm font-medium text-brand-700">Step 2 of 3</p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight text-gray-900">Choose the sketches for your book</h1>
          <p className="mt-2 max-w-2xl text-gray-600">
            Each photo becomes a line drawing. Pick the ones you want printed in “{book.title}”.
          </p>
        </div>

        {book.lockedWhilePaying ? (
          // The pages are the ones the open checkout pays for (decision 018): say so before any change is tried.
          <div role="status" className="mb-6 flex items-start gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
            <AlertIcon className="mt-0.5 h-5 w-5 shrink-0" />
            <p>{CREATE_BOOK_MESSAGES.pagesLockedWhilePaying}</p>
          </div>
        ) : null}

        {book.sentToDraw > 0 ? (
          <p role="status" className="mb-4 text-sm text-gray-700">
            {BOOK_PAGE_MESSAGES.waitingPhotosSent(book.sentToDraw)}
          </p>
        ) : null}

        {inProgress ? (
          <div className="mb-6 rounded-xl border border-brand-100 bg-brand-50 p-4" aria-live="polite">
            <ProgressBar value={total ? (processed / total) * 100 : 0} label={`Drawing your sketches: ${processed} of ${total} done`} />
          </div>
        ) : null}

        {list.length > 0 ? (
          <BookDetailPicker value={bookLevel} disabled={!book.editable || savingBookLevel} onChange={changeBookLevel} />
        ) : null}

        <div className="grid grid-cols-1 gap-8 lg:grid-cols-[minmax(0,1fr)_18rem]">
          <section aria-label="Your sketches">
            <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
              <div role="group" aria-label="Filter images" className="inline-flex rounded-lg border border-gray-200 bg-white p-1">
                {FILTERS.map((f) => (
                  <button
                    key={f.id}
                    type="button"
                    aria-pressed={filter === f.id}
                    onClick={() => setFilter(f.id)}
                    className={`rounded-md px-3 py-1.5 text-sm font-medium transition ${
                      filter === f.id ? "bg-brand-600 text-white shadow-sm" : "text-gray-600 hover:bg-gray-100"
                    }`}
                  >
                    {f.label} ({counts[f.id]})
                  </button>
                ))}
              </div>
              {allDone ? (
                <div role="group" aria-label="Bulk selection" className="flex flex-wrap gap-1">
                  {BULK_TOOLS.map((tool) => (
                    <button
                      key={tool.label}
                      type="button"
                      className={buttonStyles.subtle}
                      onClick={() => applySelections(list.map((image) => ({ image, isSelected: tool.keeps(image) })))}
                    >
                      {tool.label}
                    </button>
                  ))}
                </div>
              ) : null}
            </div>

            {images === null && !loadError ? (
              <div className="flex items-center gap-2 rounded-xl border border-gray-200 bg-white p-6 text-gray-600">
                <Spinner label="Loading sketches" /> Loading your sketches…
              </div>
            ) : loadError ? (
              <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-6 text-red-800">
                {loadError}
              </div>
            ) : list.length === 0 ? (
              <div className="flex flex-col items-center rounded-xl border border-gray-200 bg-white p-10 text-center">
                <ImageIcon className="h-8 w-8 text-gray-400" />
                <p className="mt-2 font-medium text-gray-900">This book has no photos yet</p>
                <Link to={`/book/${book.id}/upload`} className={`${buttonStyles.primary} mt-4`}>
                  Upload photos
                </Link>
              </div>
            ) : visible.length === 0 ? (
              <p className="rounded-xl border border-gray-200 bg-white p-6 text-center text-gray-600">
                No photos match this filter.
              </p>
            ) : (
              <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
                {visible.map((image) => (
                  <ImageCard
                    key={image.id}
                    image={image}
                    pageNumber={pageNumbers.get(image.id) ?? 0}
                    bookDetailLevel={bookLevel}
                    editable={book.editable}
                    busy={busyImages.has(image.id) || savingBookLevel}
                    onToggle={(target, isSelected) => applySelections([{ image: target, isSelected }])}
                    onDetailChange={(target, level) =>
                      changePage(target, () => setPageDetailLevel(target.id, level), DETAIL_LEVEL_MESSAGES.changeFailed)
                    }
                    onRetry={(target) =>
                      changePage(
                        target,
                        () => retryImage(target.id),
                        DETAIL_LEVEL_MESSAGES.retryFailed,
                        DETAIL_LEVEL_MESSAGES.retryStarted,
                      )
                    }
                    onPreview={() => toast({ title: MESSAGES.fullPreviewSoon })}
                    onRemove={() => toast({ title: BOOK_PAGE_MESSAGES.removeImageUnavailable })}
                  />
                ))}
              </ul>
            )}
          </section>

          <aside className="lg:sticky lg:top-6 lg:self-start">
            <div className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm">
              <h2 className="flex items-center gap-2 text-lg font-semibold text-gray-900">
                <BookIcon className="h-5 w-5 text-brand-600" /> Your book
              </h2>
              <dl className="mt-4 space-y-2 text-sm">
                <div className="flex justify-between">
                  <dt className="text-gray-600">Sketches selected</dt>
                  <dd className="font-medium text-gray-900">{selectedCount}</dd>
                </div>
                <div className="flex justify-between">
                  <dt className="text-gray-600">Estimated pages</dt>
                  <dd className="font-medium text-gray-900">{bookPageCount(selectedCount)}</dd>
                </div>
              </dl>
              <p className="mt-2 text-xs text-gray-500">Includes a title page and your dedication page.</p>
              {hasPhotos ? (
                <PhotoRangeNote
                  plan={plan}
                  planByCount={book.bookType === null}
                  advice={photoCountAdvice(plan, selectedForPlan, usable)}
                  uploadHref={`/book/${book.id}/upload`}
                />
              ) : null}
              <button type="button" onClick={goToOrder} disabled={!canCreate} className={`${buttonStyles.primary} mt-5 w-full`}>
                {LABELS.createMyBook}
              </button>
              {!canCreate ? (
                <p className="mt-2 text-xs text-gray-500">
                  {allDone ? "Select at least one sketch to continue." : "You can continue once every sketch is ready."}
                </p>
              ) : null}
            </div>
          </aside>
        </div>

        <StepNavigation>
          <Link to={`/book/${book.id}/upload`} className={buttonStyles.secondary}>
            <ArrowLeftIcon className="h-4 w-4" />
            {LABELS.back}
          </Link>
          <button type="button" onClick={goToOrder} disabled={!canCreate} className={buttonStyles.primary}>
            {LABELS.next}
            <ArrowRightIcon className="h-4 w-4" />
          </button>
        </StepNavigation>
      </main>
    </>
  );
}
