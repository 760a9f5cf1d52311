import { z } from 'zod';

/** `GET /messenger/config`: what the page needs to start (the key, languages, live events, brand). */

export const messengerConfigSchema = z.object({
  key: z
    .string()
    .describe('The application key: send it as the `key` query parameter of every messaging call.'),
  locales: z.array(z.string()).describe('The languages the page offers (`en`, `ar`).'),
  fallbackLocale: z.string().describe('The language used when no other is chosen (`en`).'),
  broadcaster: z
    .object({
      key: z.string().describe('The broadcaster’s public app key, for pusher-js.'),
      cluster: z
        .string()
        .describe(
          'The Pusher cluster name (pusher-js requires one; the embedded server ignores it).',
        ),
      wsHost: z
        .string()
        .optional()
        .describe(
          'The websocket host; absent: the page’s own host (the embedded server) or the hosted Pusher’s.',
        ),
      wsPort: z
        .number()
        .int()
        .optional()
        .describe('The websocket port without TLS; absent: the page’s own.'),
      wssPort: z
        .number()
        .int()
        .optional()
        .describe('The websocket port with TLS; absent: the page’s own.'),
      forceTLS: z.boolean().describe('Connect over TLS only.'),
      authEndpoint: z
        .string()
        .describe('Where pusher-js asks to join a private channel (`POST /broadcasting/auth`).'),
      userAuthEndpoint: z
        .string()
        .optional()
        .describe('Where pusher-js authenticates the user (`POST /broadcasting/user-auth`).'),
    })
    .describe('How the page connects to the live events (pusher-js and laravel-echo options).'),
  /** How long after sending its sender may edit or delete a message (`EDIT_WINDOW_SECONDS`). */
  edit_window_seconds: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'How many seconds after sending its sender may edit or delete a message (EDIT_WINDOW_SECONDS).',
    ),
  site_name: z
    .string()
    .optional()
    .describe('The site’s name (SITE_NAME); absent from an older server.'),
  brand_logo_url: z
    .string()
    .nullable()
    .optional()
    .describe('The site’s logo (BRAND_LOGO_URL); null: the product’s own mark.'),
  brand_color: z
    .string()
    .optional()
    .describe(
      'The site’s accent colour (BRAND_COLOR, `#rrggbb`); text on it is black or white, whichever contrasts more.',
    ),
});
export type MessengerConfig = z.infer<typeof messengerConfigSchema>;
