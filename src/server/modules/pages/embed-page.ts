import { EMBED_MODES } from '../../../shared/embed-protocol.js';
import type { Locale } from '../../../shared/integration.js';
import { noticePage, type Brand, type NoticeText } from '../../lib/static-page.js';

/**
 * Who may frame a `/messages…` response (ADR 022), from `EMBED_ORIGINS` and the query:
 * - not embedded (no `embed`): `'self'` and every embedding origin (null without any: the default,
 *   `'self'` with `X-Frame-Options: SAMEORIGIN`);
 * - embedded (`embed=…&host_origin=<H>`, H one of them): H alone, so the browser itself makes sure
 *   the page framing it is H (the frame then talks to H only);
 * - `refused`: `embed` that is not a mode (`inbox`, `conversation`, `badge`), or with a
 *   `host_origin` that may not embed the messenger.
 */
export type MessagesFraming =
  { embedded: boolean; frameAncestors: string[] | null } | { embedded: true; refused: true };

export const messagesFraming = (
  embedOrigins: readonly string[],
  query: Record<string, unknown> | undefined,
): MessagesFraming => {
  if (query?.embed === undefined)
    return {
      embedded: false,
      frameAncestors: embedOrigins.length > 0 ? ["'self'", ...embedOrigins] : null,
    };
  const host = query.host_origin;
  const mode = query.embed;
  // a mode the page does not know would boot as the whole page, sending a lost session nowhere
  if (typeof mode !== 'string' || !(EMBED_MODES as readonly string[]).includes(mode))
    return { embedded: true, refused: true };
  if (typeof host !== 'string' || !embedOrigins.includes(host))
    return { embedded: true, refused: true };
  return { embedded: true, frameAncestors: [host] };
};

const TEXTS: Record<Locale, NoticeText> = {
  en: {
    title: 'Cannot be embedded',
    heading: 'This page cannot be embedded here.',
    body: 'The site showing it is not one the messenger may be embedded in.',
  },
  ar: {
    title: 'لا يمكن التضمين',
    heading: 'لا يمكن تضمين هذه الصفحة هنا.',
    body: 'الموقع الذي يعرضها ليس من المواقع التي يُسمح بتضمين الرسائل فيها.',
  },
};

/** The 400 page of an embedded page asked for by a host origin not in `EMBED_ORIGINS`. */
export const notEmbeddablePage = (
  locale: Locale,
  brand: Brand,
  stylesheets: readonly string[] = [],
): string => noticePage(locale, TEXTS[locale], brand, stylesheets);
