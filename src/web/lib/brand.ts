/**
 * The site's brand as the server wrote it into the page (`SITE_NAME`, `BRAND_LOGO_URL`): meta tags
 * of index.html and login.html, filled in when the page is served (src/server/lib/brand-page.ts).
 * Under the Vite dev server, or before they are filled, the product's own name and mark.
 */
export interface PageBrand {
  siteName: string;
  /** Unset: the product's own mark. */
  logoUrl: string | null;
}

/** The meta tags' names, and the placeholders the server replaces in them. */
export const BRAND_META = {
  siteName: { name: 'site-name', placeholder: '__SITE_NAME__' },
  logoUrl: { name: 'brand-logo-url', placeholder: '__BRAND_LOGO_URL__' },
} as const;

const DEFAULT_SITE_NAME = 'Messages';

const readMeta = ({ name, placeholder }: { name: string; placeholder: string }): string | null => {
  if (typeof document === 'undefined') return null;
  const content = document.querySelector(`meta[name="${name}"]`)?.getAttribute('content');
  return content && content !== placeholder ? content : null;
};

export const readPageBrand = (): PageBrand => ({
  siteName: readMeta(BRAND_META.siteName) ?? DEFAULT_SITE_NAME,
  logoUrl: readMeta(BRAND_META.logoUrl),
});
