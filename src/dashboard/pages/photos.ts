/**
 * A chatbot's listings with the hosted photos each shows, in Order, as images from the media base
 * URL (`LISTING_SYNC_MEDIA_BASE_URL`): what the chatbot's Images point at, rehosted. Read from the
 * photo references each hosting run records (src/store/shown-photos.ts), so it needs no call to
 * the service. Without a base URL the page names the objects and the setting that shows them.
 */
import { html, type SafeHtml } from '../html.js';
import { PAGE_CSP } from '../security.js';
import type { ShownPhotosView } from '../types.js';
import { page, type PageContext } from './layout.js';

/** Listings shown at most (the page is a look at the photos, not an export). */
export const PHOTOS_SHOWN = 50;

function objectUrl(baseUrl: string, key: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(key)}`;
}

/** The origin images may load from: the base URL's, when it is an http(s) URL. */
function originOf(baseUrl: string | undefined): string | undefined {
  if (baseUrl === undefined) return undefined;
  try {
    const url = new URL(baseUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The page's CSP: the dashboard's own, with images also from the media base URL's origin. Why
 * only this page: it alone shows hosted photos, and every other page keeps img-src 'self'.
 */
export function photosCsp(baseUrl: string | undefined): Record<string, string> {
  const origin = originOf(baseUrl);
  if (origin === undefined) return {};
  return { 'content-security-policy': PAGE_CSP.replace("img-src 'self'", `img-src 'self' ${origin}`) };
}

function photoCells(objects: readonly string[], baseUrl: string | undefined): SafeHtml {
  const origin = originOf(baseUrl);
  if (baseUrl === undefined || origin === undefined) return html`${objects.map((key) => html`<span class="mono small">${key}</span> `)}`;
  return html`${objects.map(
    (key, index) =>
      html`<a href="${objectUrl(baseUrl, key)}"><img class="photo" src="${objectUrl(baseUrl, key)}" alt="photo ${index + 1}" loading="lazy" width="160" height="120"></a>`,
  )}`;
}

export function photosPage(ctx: PageContext, chatbot: string, shown: ShownPhotosView, baseUrl: string | undefined): string {
  const intro =
    originOf(baseUrl) === undefined
      ? html`<p class="muted" id="photos-no-base">This dashboard does not know where the photos are served: start it with
the syncs' LISTING_SYNC_MEDIA_STORE and LISTING_SYNC_MEDIA_BASE_URL (their --media-store and --media-base-url) to see them here. The stored objects are named below.</p>`
      : html`<p class="muted">Served from <span class="mono">${baseUrl ?? ''}</span>: the Images the chatbot shows, in Order.</p>`;
  const more =
    shown.total > shown.listings.length
      ? html`<p class="muted">The first ${shown.listings.length} of ${shown.total} listings.</p>`
      : html``;
  const body =
    shown.listings.length === 0
      ? html`<p class="muted" id="no-photos">No hosted photos recorded for ${chatbot}: its runs link the feed's photos, or have not
hosted any yet (sync with --media-store and --media-base-url to host them).</p>`
      : html`${intro}${more}<table id="listing-photos"><thead><tr><th>ListingKey</th><th>Photos</th></tr></thead>
<tbody>${shown.listings.map(
          (listing) =>
            html`<tr data-listing="${listing.listingKey}"><td class="mono">${listing.listingKey}</td><td>${photoCells(listing.objects, baseUrl)}</td></tr>`,
        )}</tbody></table>`;
  return page(
    ctx,
    `Photos of ${chatbot}`,
    html`<h1>Photos of <span class="mono">${chatbot}</span>'s listings</h1>
<p><a href="${ctx.base}/chatbots/${encodeURIComponent(chatbot)}">The chatbot</a></p>${body}`,
  );
}
