/**
 * The free sketch converter (docs/product.md §5.2): one photo, shrunk in the browser, uploaded
 * through a ticket, converted while the visitor waits, then shown beside its sketch. One per
 * browser (a local-storage flag); the server's own limits stop scripts.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { FileRejection } from "react-dropzone";
import { BeforeAfter } from "~/components/before-after";
import { buttonStyles } from "~/components/button-styles";
import { CreateBookCallToAction, DebugPanel, UsedPreviewCard } from "~/components/free-preview-cards";
import { SinglePhotoDropzone } from "~/components/single-photo-dropzone";
import { Spinner } from "~/components/spinner";
import { useToast } from "~/components/toast";
import { apiErrorMessage, convertUploadedImage, requestUploadTickets, uploadFileToTicket } from "~/lib/api-client";
import { ensureBrowserSessionId } from "~/lib/browser-session";
import { PREVIEW_COMPARISON_HEIGHT_PX } from "~/lib/shop-rules";
import { PREVIEW_LABELS, PREVIEW_MESSAGES, SHOP_NAME } from "~/lib/customer-copy";
import {
  conversionFailure,
  freePreviewUsed,
  markFreePreviewUsed,
  PREVIEW_DROPZONE_ACCEPT,
  readAsDataUrl,
  refusalOf,
} from "~/lib/free-preview";
import { preparePhotoForUpload } from "~/lib/prepare-photo";
import { debugViewEnabled } from "~/server/preview/free-preview.server";

export const meta: MetaFunction = () => [
  { title: `${PREVIEW_LABELS.pageTitle} – ${SHOP_NAME}` },
  { name: "description", content: PREVIEW_LABELS.metaDescription },
];

export async function loader({ context }: LoaderFunctionArgs) {
  return json({ debugView: debugViewEnabled(context.cloudflare.env) });
}

/** docs/product.md §5.2: nothing uploaded → photo shown → uploaded → converting → converted. */
type Stage = "empty" | "uploading" | "uploaded" | "converting" | "converted";

interface Photo {
  name: string;
  previewUrl: string;
  /** Known once the server has read the upload's header. */
  width?: number;
  height?: number;
}

export default function PreviewTestPage() {
  const { debugView } = useLoaderData<typeof loader>();
  const toast = useToast();
  // null until the browser has been asked: the server cannot know about local storage.
  const [usedBefore, setUsedBefore] = useState<boolean | null>(null);
  const [stage, setStage] = useState<Stage>("empty");
  const [photo, setPhoto] = useState<Photo | null>(null);
  const [uploadKey, setUploadKey] = useState<string | null>(null);
  const [sketchUrl, setSketchUrl] = useState<string | null>(null);
  const previewUrls = useRef<string[]>([]);

  useEffect(() => {
    setUsedBefore(freePreviewUsed());
    const urls = previewUrls.current;
    return () => urls.forEach((url) => URL.revokeObjectURL(url));
  }, []);

  function showPhoto(file: Blob, name: string) {
    const previewUrl = URL.createObjectURL(file);
    previewUrls.current.push(previewUrl);
    setPhoto({ name, previewUrl });
  }

  function startOver() {
    setStage("empty");
    setPhoto(null);
    setUploadKey(null);
  }

  async function onDrop(accepted: File[], rejected: FileRejection[]) {
    const refusal = refusalOf(accepted, rejected);
    if (refusal) {
      toast({ ...refusal, variant: "destructive" });
      return;
    }
    const [file] = accepted;
    if (!file) return;
    setStage("uploading");
    setSketchUrl(null);
    showPhoto(file, file.name);

    let ticketUrl: string;
    let prepared: File;
    try {
      prepared = await preparePhotoForUpload(file);
      const [ticket] = await requestUploadTickets(1, ensureBrowserSessionId());
      ticketUrl = ticket.url;
    } catch (error) {
      toast({
        title: PREVIEW_MESSAGES.uploadErrorTitle,
        description: apiErrorMessage(error, PREVIEW_MESSAGES.uploadProcessFailed),
        variant: "destructive",
      });
      startOver();
      return;
    }
    try {
      const uploaded = await uploadFileToTicket(await readAsDataUrl(prepared), ticketUrl, file.name);
      if (prepared !== file) showPhoto(prepared, file.name);
      setPhoto((current) => current && { ...current, width: uploaded.width, height: uploaded.height });
      setUploadKey(uploaded.key);
      setStage("uploaded");
      toast({ title: PREVIEW_MESSAGES.uploadCompleteTitle, description: PREVIEW_MESSAGES.uploadComplete });
    } catch (error) {
      toast({
        title: PREVIEW_MESSAGES.uploadErrorTitle,
        description: apiErrorMessage(error, PREVIEW_MESSAGES.uploadToStorageFailed),
        variant: "destructive",
      });
      startOver();
    }
  }

  async function convert() {
    if (!uploadKey) return;
    setStage("converting");
    try {
      const { data } = await convertUploadedImage(uploadKey);
      if (!data?.convertedImageUrl) {
        toast({ title: PREVIEW_MESSAGES.conversionErrorTitle, description: PREVIEW_MESSAGES.conversionErrorDefault, variant: "destructive" });
        setStage("uploaded");
        return;
      }
      setSketchUrl(data.convertedImageUrl);
      setStage("converted");
      markFreePreviewUsed();
      toast({ title: PREVIEW_MESSAGES.convertedTitle, description: PREVIEW_MESSAGES.convertedDescription });
    } catch (error) {
      toast({ ...conversionFailure(error), variant: "destructive" });
      setStage("uploaded");
    }
  }

  // The result of this visit stays on screen; only a later visit finds the preview used.
  const showUsedCard = usedBefore === true && stage === "empty";
  return (
    <>
      <main className="bg-gradient-to-b from-brand-50 to-gray-50">
        <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
          <h1 className="text-3xl font-bold tracking-tight text-gray-900 sm:text-4xl">{PREVIEW_LABELS.heading}</h1>
          <p className="mt-3 text-lg text-gray-600">{PREVIEW_LABELS.intro}</p>

          <div className="mt-8 space-y-6">
            {usedBefore === null ? (
              <div className="h-72 rounded-2xl border border-gray-200 bg-white/60" aria-hidden="true" />
            ) : showUsedCard ? (
              <UsedPreviewCard />
            ) : stage === "converted" && photo && sketchUrl ? (
              <ConvertedResult photo={photo} sketchUrl={sketchUrl} />
            ) : photo ? (
              <PhotoCard photo={photo} stage={stage} onConvert={convert} onStartOver={startOver} />
            ) : (
              <SinglePhotoDropzone
                accept={PREVIEW_DROPZONE_ACCEPT}
                onDrop={onDrop}
                title={PREVIEW_LABELS.dropzoneTitle}
                hint={PREVIEW_LABELS.dropzoneHint}
                pickLabel={PREVIEW_LABELS.pickPhoto}
                fileInputLabel={PREVIEW_LABELS.photoFile}
              />
            )}
            {stage === "converted" ? <CreateBookCallToAction /> : null}
            {stage === "converted" && debugView && sketchUrl ? <DebugPanel conversion={sketchUrl} /> : null}
          </div>
        </div>
      </main>
    </>
  );
}

function PhotoCard({
  photo,
  stage,
  onConvert,
  onStartOver,
}: {
  photo: Photo;
  stage: Stage;
  onConvert: () => void;
  onStartOver: () => void;
}) {
  const busy = stage === "uploading" || stage === "converting";
  return (
    <section aria-label={PREVIEW_LABELS.yourPhoto} className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="overflow-hidden rounded-xl bg-gray-100">
        <img src={photo.previewUrl} alt={`${PREVIEW_LABELS.yourPhoto}: ${photo.name}`} className="mx-auto max-h-96 w-full object-contain" />
      </div>
      <p className="mt-3 truncate text-sm text-gray-600" title={photo.name}>
        {photo.name}
      </p>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:justify-between">
        <button type="button" className={buttonStyles.secondary} onClick={onStartOver} disabled={busy}>
          {PREVIEW_LABELS.chooseAnother}
        </button>
        <button type="button" className={buttonStyles.primary} onClick={onConvert} disabled={stage !== "uploaded"}>
          {busy ? <Spinner className="h-4 w-4" /> : null}
          {stage === "converting" ? PREVIEW_LABELS.converting : stage === "uploading" ? PREVIEW_LABELS.uploading : PREVIEW_LABELS.convert}
        </button>
      </div>
    </section>
  );
}

/**
 * The comparison is as tall as the photo is at the frame's width (no empty bands on a phone),
 * but no taller than PREVIEW_COMPARISON_HEIGHT_PX.
 */
function useComparisonHeight(photo: Photo) {
  const frameRef = useRef<HTMLDivElement>(null);
  const [frameWidth, setFrameWidth] = useState<number | null>(null);
  useEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    const observer = new ResizeObserver(([entry]) => setFrameWidth(entry.contentRect.width));
    observer.observe(frame);
    return () => observer.disconnect();
  }, []);
  if (!frameWidth || !photo.width || !photo.height) return { frameRef, height: PREVIEW_COMPARISON_HEIGHT_PX };
  return { frameRef, height: Math.min(PREVIEW_COMPARISON_HEIGHT_PX, Math.round((frameWidth * photo.height) / photo.width)) };
}

function ConvertedResult({ photo, sketchUrl }: { photo: Photo; sketchUrl: string }) {
  const { frameRef, height } = useComparisonHeight(photo);
  return (
    <section aria-label={PREVIEW_LABELS.yourSketch} className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:p-6">
      <div ref={frameRef}>
        <BeforeAfter
          beforeSrc={photo.previewUrl}
          afterSrc={sketchUrl}
          beforeAlt={`${PREVIEW_LABELS.yourPhoto}: ${photo.name}`}
          afterAlt={`${PREVIEW_LABELS.yourSketch}: ${photo.name}`}
          height={height}
        />
      </div>
    </section>
  );
}
