/**
 * The create-book purchase in the browser, in the order of docs/product.md §5.4: upload each photo in turn
 * (shrunk to print size first) through an upload ticket, record the book data, save the pending
 * order, open the checkout, go to the payment page. An upload error aborts; a failure to record
 * the book data is shown and the purchase goes on.
 */
import { ApiError, apiErrorMessage, createCheckoutSession, putFileToTicket, recordBookData, requestUploadTickets } from "./api-client";
import { type UploadTicket } from "./api-types";
import { ensureBrowserSessionId } from "./browser-session";
import { CREATE_BOOK_MESSAGES } from "./customer-copy";
import { savePendingOrder } from "./pending-order";
import { preparePhotoForUpload } from "./prepare-photo";
import type { CreateBookFormInput } from "./schemas";

export interface PurchaseToast {
  title: string;
  description: string;
  variant?: "default" | "destructive";
}

export interface PurchaseHooks {
  /** 0-100 over all the photos. */
  onProgress(percent: number): void;
  toast(toast: PurchaseToast): void;
  /** Where the browser goes at the end (window.location.assign in the page). */
  redirect(url: string): void;
}

/** Thrown by the upload step with the toast docs/product.md §5.4 names; the page stops uploading. */
export class PurchaseAborted extends Error {
  constructor(readonly toast: PurchaseToast) {
    super(toast.description);
  }
}

export async function purchaseBook(form: CreateBookFormInput, photos: File[], hooks: PurchaseHooks): Promise<void> {
  const sessionId = ensureBrowserSessionId();
  const uploadKeys = await uploadPhotos(form, photos, sessionId, hooks);

  let checkoutId: number | undefined;
  try {
    checkoutId = (
      await recordBookData({
        sessionId,
        bookType: form.bookType,
        title: form.title,
        customMessage: form.customMessage,
        quantity: form.quantity,
        nrPhotos: photos.length,
        newsletterSignup: form.newsletterSignup,
        agreeToTerms: form.agreeToTerms,
      })
    ).checkoutId;
  } catch (error) {
    console.error("record-book-data failed; the purchase goes on", error);
    hooks.toast({
      title: CREATE_BOOK_MESSAGES.orderErrorTitle,
      description: error instanceof ApiError ? CREATE_BOOK_MESSAGES.recordFailed : CREATE_BOOK_MESSAGES.recordFailedGeneric,
      variant: "destructive",
    });
  }

  savePendingOrder({
    bookType: form.bookType,
    title: form.title,
    customMessage: form.customMessage ?? "",
    quantity: form.quantity,
    filesCount: photos.length,
    sessionId,
    timestamp: Date.now(),
    newsletterSignup: form.newsletterSignup,
    agreeToTerms: form.agreeToTerms,
    ...(checkoutId ? { checkoutId } : {}),
  });

  let url: string;
  try {
    url = (
      await createCheckoutSession({
        bookType: form.bookType,
        quantity: form.quantity,
        title: form.title,
        customMessage: form.customMessage,
        filesCount: photos.length,
        sessionId,
        newsletterSignup: form.newsletterSignup,
        agreeToTerms: form.agreeToTerms,
        uploadKeys,
        ...(checkoutId ? { checkoutId } : {}),
      })
    ).url;
  } catch (error) {
    throw new PurchaseAborted({
      title: CREATE_BOOK_MESSAGES.checkoutErrorTitle,
      description:
        error instanceof ApiError
          ? apiErrorMessage(error, CREATE_BOOK_MESSAGES.checkoutFailed)
          : CREATE_BOOK_MESSAGES.checkoutFailedGeneric,
      variant: "destructive",
    });
  }
  hooks.redirect(url);
}

async function uploadPhotos(form: CreateBookFormInput, photos: File[], sessionId: string, hooks: PurchaseHooks): Promise<string[]> {
  const keys: string[] = [];
  hooks.onProgress(0);
  for (const [index, photo] of photos.entries()) {
    let ticket: UploadTicket | undefined;
    try {
      [ticket] = await requestUploadTickets(1, sessionId, form.bookType);
    } catch (error) {
      console.error("no upload ticket", error);
    }
    if (!ticket) {
      throw new PurchaseAborted({
        title: CREATE_BOOK_MESSAGES.uploadErrorTitle,
        description: CREATE_BOOK_MESSAGES.presignFailed(photo.name),
        variant: "destructive",
      });
    }
    const prepared = await preparePhotoForUpload(photo);
    try {
      const uploaded = await putFileToTicket(ticket, prepared, (fraction) =>
        hooks.onProgress(((index + fraction) / photos.length) * 100),
      );
      keys.push(uploaded.key);
    } catch (error) {
      const reason = error instanceof ApiError ? (error.serverMessage ?? error.statusText) : "network error";
      throw new PurchaseAborted({
        title: CREATE_BOOK_MESSAGES.uploadErrorTitle,
        description: CREATE_BOOK_MESSAGES.uploadFailedFor(photo.name, reason),
        variant: "destructive",
      });
    }
    hooks.onProgress(((index + 1) / photos.length) * 100);
  }
  return keys;
}
