import { paths } from '../../../shared/paths.js';
import { defineRouteFor, routesPlugin } from '../../http/route.js';
import { brandStylesheet } from '../../lib/brand-theme.js';
import { security } from '../../openapi/vocabulary.js';

/** `stylesheet`: the brand's style sheet, made once from BRAND_COLOR. */
const defineRoute = defineRouteFor<{ stylesheet: string }>({
  tag: 'pages',
  security: security.public,
});

export interface BrandRoutesOptions {
  /** `BRAND_COLOR` (`#rrggbb`). */
  color: string;
}

/** The site's colours, for the page and every page the server renders. */
export const brandRoutes = routesPlugin(
  [
    defineRoute({
      method: 'get',
      path: paths.brandStylesheet,
      operationId: 'brandStylesheet',
      summary: 'The site’s colours: BRAND_COLOR’s accent tokens, light and dark',
      description:
        'CSS custom properties (`--color-primary`, `--color-on-primary`, …) for the light scheme and, under `prefers-color-scheme: dark`, the dark one; text on the accent is black or white, whichever contrasts more. Cacheable for 5 minutes.',
      responses: {
        200: { description: 'The style sheet.', media: { type: 'text/css' } },
      },
      handler: async ({ reply }, { stylesheet }) =>
        reply
          .type('text/css; charset=utf-8')
          .header('cache-control', 'public, max-age=300')
          .send(stylesheet),
    }),
  ],
  async (_app, options: BrandRoutesOptions) => ({ stylesheet: brandStylesheet(options.color) }),
);
