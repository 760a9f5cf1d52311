import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/server/db/database.js';
import { ACME, SARA } from '../test-support/accounts.js';
import { signInOverHttp } from '../test-support/http-session.js';
import { conversationWith, sendMessage } from '../test-support/messaging.js';
import { WAIT } from '../test-support/wait.js';
import type { UserPage } from './support/browser.js';
import { chatMessages, expectMessageOnce, openConversation } from './support/messages-page.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

/**
 * Issue 32, what the page shows: a message with a right-to-left override draws its letters in
 * their own order and moves nothing around it; a company logo on another origin (the host's CDN,
 * here a second local server) loads, allowed by the page's CSP (IMAGE_ORIGINS).
 */

// The host's image server: up before the messenger starts, so its origin can be configured.
const logo = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c0392b' } })
  .png()
  .toBuffer();
const logoRequests: string[] = [];
const imageHost: Server = createServer((request, response) => {
  logoRequests.push(request.url ?? '');
  response.writeHead(200, { 'content-type': 'image/png', 'content-length': logo.length });
  response.end(logo);
});
await new Promise<void>((resolve) => imageHost.listen(0, '127.0.0.1', resolve));
const IMAGE_ORIGIN = `http://127.0.0.1:${(imageHost.address() as AddressInfo).port}`;
const LOGO_URL = `${IMAGE_ORIGIN}/logos/acme.png`;

/** The x of each listed letter as drawn in the bubble whose text contains `marker`. */
const drawnX = (user: UserPage, marker: string, letters: string) =>
  chatMessages(user.page, marker)
    .locator('.message__text')
    .evaluate((paragraph, wanted) => {
      const found: Record<string, number> = {};
      const walker = document.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (let index = 0; index < text.length; index += 1) {
          const char = text.charAt(index);
          if (!wanted.includes(char)) continue;
          const range = document.createRange();
          range.setStart(node, index);
          range.setEnd(node, index + 1);
          found[char] = range.getBoundingClientRect().left;
        }
      }
      return wanted.split('').map((char) => found[char] ?? Number.NaN);
    }, letters);

const expectLeftToRight = (xs: number[]) => {
  for (let index = 1; index < xs.length; index += 1)
    expect(xs[index], `letter ${index} of ${xs.join(', ')}`).toBeGreaterThan(xs[index - 1] ?? 0);
};

describe('text and photos on the page', () => {
  const suite = useE2eSuite({ failOnConsoleErrors: false, env: { IMAGE_ORIGINS: IMAGE_ORIGIN } });
  let sara: UserPage;

  beforeAll(async () => {
    const db = openDatabase(suite.server.database.url);
    try {
      await db.kysely
        .updateTable('users')
        .set({ logo: LOGO_URL, image_url: LOGO_URL })
        .where('email', '=', ACME.email)
        .execute();
    } finally {
      await db.destroy();
    }
    const session = await signInOverHttp(suite.url, SARA.email);
    const acme = await signInOverHttp(suite.url, ACME.email);
    const conversation = await conversationWith(session, acme.userId);
    for (const text of ['pq \u202Euvw\u202C xyz', 'jk \u202Elmno'])
      expect((await sendMessage(session, conversation, text)).ok).toBe(true);
    sara = await suite.newUser('candidate');
    await signInWithForm(sara.page, SARA);
    await openConversation(sara.page, ACME.name);
  });

  afterAll(async () => {
    await new Promise((resolve) => imageHost.close(resolve));
  });

  it('draws the letters of a right-to-left override in their own order, and the text after it stays after', async () => {
    await expectMessageOnce(sara.page, 'pq');
    expectLeftToRight(await drawnX(sara, 'pq', 'pquvwxyz'));
    await expectMessageOnce(sara.page, 'jk');
    expectLeftToRight(await drawnX(sara, 'jk', 'jklmno'));
  });

  it('shows a company logo served by the host’s own origin', async () => {
    const image = sara.page.locator(`img[src="${LOGO_URL}"]`).first();
    await image.waitFor({ state: 'attached', timeout: WAIT.timeout });
    expect(await image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(8);
    expect(logoRequests).toContain('/logos/acme.png');
  });
});
