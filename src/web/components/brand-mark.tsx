import type { PageBrand } from '../lib/brand.js';

/**
 * The site's logo (`BRAND_LOGO_URL`, its alternative text the site's name), else the product's own
 * mark (decoration: the site's name is written next to it).
 */
export const BrandMark = ({ brand }: { brand: PageBrand }) =>
  brand.logoUrl ? (
    <img
      className="topbar__logo-image"
      data-testid="brand-logo"
      src={brand.logoUrl}
      alt={brand.siteName}
    />
  ) : (
    <span className="topbar__logo" data-testid="brand-mark" aria-hidden="true" />
  );
