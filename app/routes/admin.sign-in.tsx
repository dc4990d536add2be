/**
 * /admin/sign-in: the orders desk's local sign-in, for `npm run dev` and the tests only (a
 * password from ADMIN_LOCAL_PASSWORD gives a short-lived signed cookie). In production
 * Cloudflare Access signs admins in and this page does not exist (404).
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { withZod } from "@remix-validated-form/with-zod";
import { ValidatedForm, useField, useIsSubmitting, validationError } from "remix-validated-form";
import { buttonStyles } from "~/components/button-styles";
import { Spinner } from "~/components/spinner";
import { adminSignInSchema } from "~/lib/admin-schemas";
import { ADMIN_TEXT, SHOP_NAME } from "~/lib/customer-copy";
import { adminNotFound, admittedAdmin, localSignInAvailable, signInLocally, signOutCookie } from "~/server/admin/admin-access.server";
import { readFormFields } from "~/server/http/http.server";

export const meta: MetaFunction = () => [{ title: `${ADMIN_TEXT.signInTitle} – ${SHOP_NAME}` }, { name: "robots", content: "noindex" }];

const FORM_ID = "admin-sign-in";
const validator = withZod(adminSignInSchema);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  if (!localSignInAvailable(env)) throw adminNotFound();
  if (await admittedAdmin(request, env)) return redirect("/admin");
  return json(null);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  if (!localSignInAvailable(env)) throw adminNotFound();
  const form = await readFormFields(request);
  if (form.intent === "sign-out") return redirect("/admin/sign-in", { headers: { "Set-Cookie": signOutCookie() } });
  const result = await validator.validate(form);
  if (result.error) return validationError(result.error);
  const cookie = await signInLocally(env, result.data.password);
  if (!cookie) return validationError({ fieldErrors: { password: ADMIN_TEXT.wrongPassword }, formId: FORM_ID });
  return redirect("/admin", { headers: { "Set-Cookie": cookie } });
}

export default function AdminSignIn() {
  return (
    <main className="mx-auto max-w-md px-4 py-12 sm:py-16">
      <section aria-labelledby="sign-in-heading" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-200 sm:p-8">
        <h1 id="sign-in-heading" className="text-2xl font-bold text-gray-900">
          {ADMIN_TEXT.signInTitle}
        </h1>
        <p className="mt-2 text-sm text-gray-600">{ADMIN_TEXT.signInIntro}</p>
        <ValidatedForm id={FORM_ID} validator={validator} method="post" className="mt-6 space-y-4" noValidate>
          <PasswordField />
          <SignInButton />
        </ValidatedForm>
      </section>
    </main>
  );
}

function PasswordField() {
  const { error, getInputProps } = useField("password", { formId: FORM_ID });
  return (
    <div>
      <label htmlFor="admin-password" className="mb-1 block text-sm font-medium text-gray-800">
        {ADMIN_TEXT.password}
      </label>
      <input
        {...getInputProps({ id: "admin-password", type: "password", autoComplete: "current-password" })}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "admin-password-error" : undefined}
        className={`block w-full rounded-lg border px-3 py-2 shadow-sm focus:outline-none focus:ring-2 ${
          error ? "border-red-500 focus:ring-red-200" : "border-gray-300 focus:border-brand-500 focus:ring-brand-100"
        }`}
      />
      {error ? (
        <p id="admin-password-error" role="alert" className="mt-1 text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function SignInButton() {
  const submitting = useIsSubmitting(FORM_ID);
  return (
    <button type="submit" disabled={submitting} className={`${buttonStyles.primary} w-full`}>
      {submitting ? <Spinner className="h-4 w-4" /> : null}
      {ADMIN_TEXT.signIn}
    </button>
  );
}
