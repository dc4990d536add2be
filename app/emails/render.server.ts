/**
 * Renders an email's React tree to an html document inside the Worker.
 *
 * Why not `render` from @react-email/render: its edge build imports react-dom/server.edge, which
 * React 18 does not export, and it imports prettier (for its `pretty` option) and html-to-text
 * (for `plainText`), options we do not use: our plain-text bodies are written out from the same
 * texts instead. This does what that edge build does otherwise: react-dom/server's streaming renderer (the one entry.server.tsx
 * already ships), read to the end, behind the XHTML doctype email clients expect. React escapes
 * every text it renders, so a customer's title arrives as text, never as markup.
 */
import type { ReactElement } from "react";
import { renderToReadableStream } from "react-dom/server";

const EMAIL_DOCTYPE =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

export async function renderEmailHtml(email: ReactElement): Promise<string> {
  let renderError: unknown;
  const stream = await renderToReadableStream(email, {
    onError(error) {
      renderError = error;
    },
  });
  await stream.allReady;
  const html = await new Response(stream).text();
  if (renderError) throw renderError;
  return EMAIL_DOCTYPE + html.replace(/^<!DOCTYPE[^>]*>/i, "");
}
