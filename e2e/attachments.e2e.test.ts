/**
 * Issue 16, in two Chromium contexts: a candidate (Sara) drags a PDF and an image onto the
 * conversation and sends them; the company (Acme), looking at the conversation, sees both arrive
 * live, opens the image full size and downloads the PDF, byte for byte.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACME, SARA } from '../test-support/accounts.js';
import { WAIT } from '../test-support/wait.js';
import { expectNoAxeViolations } from './support/axe.js';
import type { UserPage } from './support/browser.js';
import { chatMessages, openConversation, uniqueTag, waitForLive } from './support/messages-page.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

describe('files between a candidate and a company', () => {
  const suite = useE2eSuite({ failOnConsoleErrors: true });
  let sara: UserPage;
  let acme: UserPage;
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n% a CV\n'), randomBytes(40_000)]);
  let png: Buffer;

  beforeAll(async () => {
    png = await sharp({
      create: { width: 800, height: 500, channels: 3, background: { r: 40, g: 120, b: 200 } },
    })
      .png()
      .toBuffer();
    // (axe-core's script is injected into her page: it needs the page's CSP bypassed)
    sara = await suite.newUser('candidate', { bypassCSP: true });
    acme = await suite.newUser('company');
  });

  it('the candidate drops a PDF and an image; the company sees them live, opens the image, downloads the PDF', async () => {
    await signInWithForm(acme.page, ACME);
    await waitForLive(acme);
    await openConversation(acme.page, SARA.name);
    await signInWithForm(sara.page, SARA);
    await waitForLive(sara);
    await openConversation(sara.page, ACME.name);

    // Sara drags both files from her desktop onto the conversation
    const files = await sara.page.evaluateHandle(
      ({ pdfBase64, pngBase64 }) => {
        const bytes = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes(pdfBase64)], 'cv.pdf', { type: 'application/pdf' }));
        transfer.items.add(new File([bytes(pngBase64)], 'portfolio.png', { type: 'image/png' }));
        return transfer;
      },
      { pdfBase64: pdf.toString('base64'), pngBase64: png.toString('base64') },
    );
    const pane = sara.page.getByTestId('chat-pane');
    await pane.dispatchEvent('dragenter', { dataTransfer: files });
    await pane.dispatchEvent('dragover', { dataTransfer: files });
    await sara.page.getByTestId('drop-hint').waitFor();
    await pane.dispatchEvent('drop', { dataTransfer: files });

    const chips = sara.page.getByTestId('attachment-chip');
    await expect.poll(() => chips.count(), WAIT).toBe(2);
    await expect.poll(() => chips.filter({ hasText: 'Ready' }).count(), WAIT).toBe(2);
    await expectNoAxeViolations(sara.page, 'the composer with two files ready to send');
    const text = `My CV and portfolio ${uniqueTag()}`;
    await sara.page.getByPlaceholder('Write Message...', { exact: true }).fill(text);
    await sara.page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => chips.count(), WAIT).toBe(0);

    // Acme sees the message arrive with both files, without reloading
    const message = chatMessages(acme.page, text);
    await message.waitFor();
    const thumbnail = message.getByRole('img', { name: 'portfolio.png' });
    await thumbnail.waitFor();
    await expect
      .poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth), WAIT)
      .toBeGreaterThan(0);
    const card = message.getByRole('link', { name: /cv\.pdf/ });
    await card.waitFor();
    expect(await card.textContent()).toMatch(/PDF/);

    // the image opens full size in a new tab
    const [opened] = await Promise.all([
      acme.context.waitForEvent('page'),
      message.getByRole('link', { name: 'portfolio.png' }).click(),
    ]);
    await opened.waitForLoadState();
    expect(await opened.evaluate(() => document.contentType)).toBe('image/png');
    const size = await opened.evaluate(() => {
      const image = document.querySelector('img');
      return image ? [image.naturalWidth, image.naturalHeight] : null;
    });
    expect(size).toEqual([800, 500]);
    await opened.close();

    // the PDF downloads under its name, byte for byte
    const [download] = await Promise.all([acme.page.waitForEvent('download'), card.click()]);
    expect(download.suggestedFilename()).toBe('cv.pdf');
    const path = await download.path();
    expect(readFileSync(path).equals(pdf)).toBe(true);
  });
});
