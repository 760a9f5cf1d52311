import { z } from 'zod';
import { setting } from './setting.js';

export const brandSettings = {
  SITE_NAME: setting(
    z
      .string()
      .trim()
      .max(100)
      // eslint-disable-next-line no-control-regex
      .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'may not hold control characters')
      .optional(),
    {
      description:
        'The site’s name: the page’s title and header, the server’s pages, e-mail subjects and footers.',
      unset: '`Messages`',
    },
  ),
  BRAND_LOGO_URL: setting(z.string().optional(), {
    description:
      'An `https:` or same-origin (`/logo.svg`) image for the header, the server’s pages and e-mails.',
    unset: 'the product’s own mark',
  }),
  BRAND_COLOR: setting(
    z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour written #rrggbb')
      .optional(),
    {
      description:
        '`#rrggbb`: the accent colour of the page, the server’s pages and e-mails; text on it is black or white, whichever contrasts more (docs/branding.md).',
      unset: 'the product’s blue, `#2563eb`',
    },
  ),
};

/** The product's own accent (the page's `--color-primary`). */
export const DEFAULT_BRAND_COLOR = '#2563eb';
export const DEFAULT_SITE_NAME = 'Messages';
