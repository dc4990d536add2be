/**
 * The 'Create Your Custom Coloring Book' form (docs/product.md §5.7): the shared bookFormSchema validates in the
 * browser, POST /api/books creates the book, and the visitor goes on to upload photos.
 */
import { useNavigate } from "@remix-run/react";
import { withZod } from "@remix-validated-form/with-zod";
import { useState } from "react";
import { ValidatedForm, useIsSubmitting } from "remix-validated-form";
import { ApiError, apiErrorMessage, createBook } from "~/lib/api-client";
import { LABELS, MESSAGES } from "~/lib/customer-copy";
import { MAX_PERSONAL_MESSAGE_LENGTH } from "~/lib/shop-rules";
import { bookFormSchema } from "~/lib/schemas";
import { buttonStyles } from "./button-styles";
import { TextAreaField, TextField } from "./form-field";
import { Spinner } from "./spinner";
import { useToast } from "./toast";

const FORM_ID = "create-book-form";
const validator = withZod(bookFormSchema);

export function CreateBookForm() {
  const toast = useToast();
  const navigate = useNavigate();
  const [messageLength, setMessageLength] = useState(0);

  return (
    <section aria-labelledby="create-book-heading" className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8">
      <h2 id="create-book-heading" className="text-2xl font-bold text-gray-900">
        {LABELS.createBookFormTitle}
      </h2>
      <p className="mt-1 text-gray-600">Give your book a title and, if you like, a dedication for its first page.</p>
      <ValidatedForm
        id={FORM_ID}
        validator={validator}
        method="post"
        className="mt-6 space-y-5"
        onSubmit={async (data, event) => {
          // The browser calls the JSON API itself; nothing is posted to this route.
          event.preventDefault();
          try {
            const book = await createBook(data);
            toast({ title: MESSAGES.bookCreated, description: MESSAGES.bookCreatedDescription });
            navigate(`/book/${book.id}/upload`);
          } catch (error) {
            const fallback = error instanceof ApiError ? error.message : "Please try again.";
            toast({ title: MESSAGES.errorCreatingBook, description: apiErrorMessage(error, fallback), variant: "destructive" });
          }
        }}
      >
        <TextField name="title" label="Book title" placeholder="e.g. Our Summer Adventures" autoComplete="off" />
        <TextAreaField
          name="personalMessage"
          label="Personal message"
          optional
          placeholder="A dedication printed on the first page of the book"
          onValueChange={(value) => setMessageLength(value.length)}
          help={
            <span className="flex justify-between">
              <span>Printed as a dedication on the first page.</span>
              <span>
                {messageLength}/{MAX_PERSONAL_MESSAGE_LENGTH}
              </span>
            </span>
          }
        />
        <SubmitButton />
      </ValidatedForm>
    </section>
  );
}

function SubmitButton() {
  const submitting = useIsSubmitting(FORM_ID);
  return (
    <button type="submit" disabled={submitting} className={`${buttonStyles.primary} w-full`}>
      {submitting ? (
        <>
          <Spinner className="h-4 w-4" />
          {LABELS.creating}
        </>
      ) : (
        LABELS.continueToUpload
      )}
    </button>
  );
}
