import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { FileRejection } from "react-dropzone";
import { BookPageHeader, StepNavigation } from "~/components/book-page-header";
import { buttonStyles } from "~/components/button-styles";
import { ArrowLeftIcon, ArrowRightIcon, ImageIcon } from "~/components/icons";
import { ImageDropzone } from "~/components/image-dropzone";
import { ProgressBar, useFakeProgress } from "~/components/progress-bar";
import { Spinner } from "~/components/spinner";
import { useToast } from "~/components/toast";
import { ApiError, apiErrorMessage, listBookImages, startBookProcessing, uploadBookImages } from "~/lib/api-client";
import { type ImageDto } from "~/lib/api-types";
import { BOOK_PAGE_MESSAGES, LABELS, MESSAGES, SHOP_NAME } from "~/lib/customer-copy";
import { MAX_PHOTOS_PER_BOOK } from "~/lib/shop-rules";
import { formatBytes } from "~/lib/format";
import { loadVisitorBook } from "~/server/books/book-pages.server";
import { preparePhotoForUpload } from "~/lib/prepare-photo";

export const meta: MetaFunction = () => [{ title: `Upload photos – ${SHOP_NAME}` }];

export async function loader({ params, context }: LoaderFunctionArgs) {
  return json(await loadVisitorBook(context, params.id));
}

const ACCEPT = { "image/jpeg": [".jpg", ".jpeg"], "image/png": [".png"], "image/webp": [".webp"] };
/** 4xx but a timeout or a rate limit: the request was understood and the photo refused. */
const isRefusal = (error: unknown) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;
/** Let a finished bar show 100% for a moment before it goes away. */
const PROGRESS_LINGER_MS = 800;

export default function UploadPage() {
  const book = useLoaderData<typeof loader>();
  const toast = useToast();
  const navigate = useNavigate();
  const upload = useFakeProgress();
  const [images, setImages] = useState<ImageDto[] | null>(null);
  const [uploadingName, setUploadingName] = useState<string | null>(null);
  const [startingProcessing, setStartingProcessing] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const uploading = upload.progress !== null && upload.progress < 100;

  useEffect(() => {
    let cancelled = false;
    listBookImages(book.id)
      .then((list) => !cancelled && setImages(list))
      .catch((error) => {
        if (cancelled) return;
        // An empty list would invite uploading the same photos twice: say what happened instead.
        setLoadError(apiErrorMessage(error, error instanceof Error ? error.message : BOOK_PAGE_MESSAGES.photosNotLoaded));
        setImages([]);
      });
    return () => {
      cancelled = true;
    };
  }, [book.id]);

  async function onDrop(accepted: File[], rejected: FileRejection[]) {
    const existing = images?.length ?? book.imageCount;
    const overLimit = rejected.some((r) => r.errors.some((e) => e.code === "too-many-files"));
    if (overLimit || existing + accepted.length > MAX_PHOTOS_PER_BOOK) {
      toast({ title: BOOK_PAGE_MESSAGES.tooManyImagesTitle, description: MESSAGES.tooManyImagesPerBook, variant: "destructive" });
      return;
    }
    if (rejected.length > 0) {
      toast({
        title: BOOK_PAGE_MESSAGES.invalidFileTypeTitle,
        description: rejected.map((r) => MESSAGES.unsupportedBookUpload(r.file.name)).join(" "),
        variant: "destructive",
      });
    }
    if (accepted.length === 0) return;

    upload.start();
    // One request per file: a phone never sends one giant body, and a failure loses one photo, not all.
    for (const file of accepted) {
      setUploadingName(file.name);
      try {
        const { images: added } = await uploadBookImages(book.id, [await preparePhotoForUpload(file)]);
        setImages((current) => [...(current ?? []), ...added]);
      } catch (error) {
        upload.reset();
        setUploadingName(null);
        const fallback = error instanceof Error ? error.message : MESSAGES.uploadFailed;
        // The server refusing this photo (not an image, too many pixels) is the photo's fault and
        // worth saying so; anything else (offline, busy, a server error) may work on a retry.
        const title = isRefusal(error) ? BOOK_PAGE_MESSAGES.uploadRejectedTitle : MESSAGES.uploadFailed;
        toast({ title, description: apiErrorMessage(error, fallback), variant: "destructive" });
        return;
      }
    }
    upload.finish();
    setUploadingName(null);
    toast({ title: MESSAGES.imagesUploaded });
    setTimeout(upload.reset, PROGRESS_LINGER_MS);
  }

  async function goToPreview() {
    setStartingProcessing(true);
    try {
      const { queued } = await startBookProcessing(book.id);
      if (queued > 0) toast({ title: MESSAGES.processingStarted, description: MESSAGES.processingStartedDescription });
      navigate(`/book/${book.id}/preview`);
    } catch (error) {
      const fallback = error instanceof Error ? error.message : MESSAGES.processingFailed;
      toast({ title: MESSAGES.processingFailed, description: apiErrorMessage(error, fallback), variant: "destructive" });
      setStartingProcessing(false);
    }
  }

  const count = images?.length ?? book.imageCount;
  return (
    <>
      <BookPageHeader
        step="upload"
        actions={
          <>
            {/* The header's Admin button (docs/product.md §5.7): the orders desk (404 for anyone not admitted). A document load,
                so Cloudflare Access can send an admin through its sign-in first. */}
            <Link to="/admin" reloadDocument className={buttonStyles.subtle}>
              {LABELS.admin}
            </Link>
            <button type="button" className={`${buttonStyles.secondary} px-3 py-1.5`}>
              {LABELS.connectWallet}
            </button>
          </>
        }
      />
      <main className="mx-auto max-w-6xl px-4 py-8 sm:py-10">
        <div className="mb-8">
          <p className="text-sm font-medium text-brand-700">Step 1 of 3</p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight text-gray-900">Upload photos for “{book.title}”</h1>
          <p className="mt-2 max-w-2xl text-gray-600">
            Add the photos you want in your coloring book. We turn each one into a black-and-white line drawing that
            you can review before you order.
          </p>
        </div>

        <div className="grid gap-8 lg:grid-cols-3">
          <div className="space-y-6 lg:col-span-2">
            <ImageDropzone
              accept={ACCEPT}
              onDrop={onDrop}
              disabled={uploading}
              maxFiles={MAX_PHOTOS_PER_BOOK}
              title="Drag & drop photos here, or click to choose"
              hint={`JPG, PNG or WebP · up to ${MAX_PHOTOS_PER_BOOK} photos per book`}
              footnote={MESSAGES.noSizeLimit}
            />
            {upload.progress !== null ? (
              <div className="rounded-xl border border-gray-200 bg-white p-4" aria-live="polite">
                <ProgressBar value={upload.progress} label={uploading ? "Uploading photos" : "Upload complete"} />
                {uploadingName ? <p className="mt-2 truncate text-sm text-gray-500">Uploading {uploadingName}…</p> : null}
              </div>
            ) : null}

            <section aria-labelledby="uploaded-heading">
              <div className="mb-3 flex items-baseline justify-between">
                <h2 id="uploaded-heading" className="text-lg font-semibold text-gray-900">
                  Your photos
                </h2>
                <span className="text-sm text-gray-500">
                  {count} / {MAX_PHOTOS_PER_BOOK}
                </span>
              </div>
              {loadError ? (
                <p role="alert" className="mb-3 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800">
                  Your uploaded photos could not be loaded ({loadError}). Please reload the page.
                </p>
              ) : null}
              {images === null ? (
                <div className="flex items-center gap-2 rounded-xl border border-gray-200 bg-white p-6 text-gray-600">
                  <Spinner label="Loading photos" /> Loading your photos…
                </div>
              ) : images.length === 0 ? (
                <div className="flex flex-col items-center rounded-xl border border-gray-200 bg-white p-8 text-center">
                  <ImageIcon className="h-8 w-8 text-gray-400" />
                  <p className="mt-2 font-medium text-gray-900">No photos yet</p>
                  <p className="text-sm text-gray-600">Photos you upload appear here.</p>
                </div>
              ) : (
                <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 md:grid-cols-4">
                  {images.map((image) => (
                    <li key={image.id} className="overflow-hidden rounded-xl border border-gray-200 bg-white shadow-sm">
                      <img
                        src={image.originalUrl}
                        alt={image.originalFilename}
                        loading="lazy"
                        className="aspect-square w-full bg-gray-100 object-cover"
                      />
                      <div className="px-3 py-2">
                        <p className="truncate text-sm font-medium text-gray-900" title={image.originalFilename}>
                          {image.originalFilename}
                        </p>
                        <p className="text-xs text-gray-500">{formatBytes(image.fileSize)}</p>
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </div>

          <aside className="space-y-4">
            <div className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm">
              <h2 className="text-sm font-semibold uppercase tracking-wide text-gray-500">Your book</h2>
              <p className="mt-2 text-lg font-semibold text-gray-900">{book.title}</p>
              {book.personalMessage ? (
                <blockquote className="mt-2 border-l-2 border-brand-500 pl-3 text-sm italic text-gray-600">
                  {book.personalMessage}
                </blockquote>
              ) : (
                <p className="mt-2 text-sm text-gray-500">No dedication.</p>
              )}
            </div>
            <div className="rounded-xl border border-gray-200 bg-white p-5 text-sm text-gray-600 shadow-sm">
              <h2 className="font-semibold text-gray-900">Tips for great pages</h2>
              <ul className="mt-2 list-disc space-y-1 pl-5">
                <li>Sharp, well-lit photos give the cleanest lines.</li>
                <li>Close-ups of people and pets work best.</li>
                <li>Only upload photos you have permission to use.</li>
              </ul>
            </div>
          </aside>
        </div>

        <StepNavigation>
          <Link to="/" className={buttonStyles.secondary}>
            <ArrowLeftIcon className="h-4 w-4" />
            {LABELS.back}
          </Link>
          <button
            type="button"
            onClick={goToPreview}
            disabled={count === 0 || uploading || startingProcessing}
            className={buttonStyles.primary}
          >
            {startingProcessing ? <Spinner className="h-4 w-4" /> : null}
            {LABELS.next}
            {startingProcessing ? null : <ArrowRightIcon className="h-4 w-4" />}
          </button>
        </StepNavigation>
      </main>
    </>
  );
}
