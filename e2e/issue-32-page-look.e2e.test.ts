/**
 * Issue 32, how the page looks, in real Chromium: every text in every bubble state is readable
 * (4.5:1), names are not cut while there is room, the message box grows with the text, the panes use
 * the window's height, the texts read well, the phone's first screen is the list itself, bare
 * www. addresses are links and file cards show their kind and a download cue.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACME, HARBOR, OMAR, SARA, type DemoAccount } from '../test-support/accounts.js';
import { signInOverHttp } from '../test-support/http-session.js';
import { conversationWith, sendMessage, uploadFile } from '../test-support/messaging.js';
import { WAIT } from '../test-support/wait.js';
import {
  chatMessages,
  conversationList,
  messageInput,
  openConversation,
  row,
  uniqueTag,
} from './support/messages-page.js';
import { openMessagesIn } from './support/language.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

const LAPTOP = { width: 1366, height: 768 } as const;
const BIG = { width: 1920, height: 1080 } as const;
const PHONE = { width: 390, height: 844 } as const;

/** Every row's name that is cut (its text wider than its box), with the widths. */
const cutNames = (page: Page) =>
  page
    .locator('.conversation-row__name')
    .evaluateAll((names) =>
      names
        .filter((name) => name.scrollWidth > name.clientWidth)
        .map((name) => `${name.textContent ?? ''} (${name.scrollWidth} > ${name.clientWidth})`),
    );

/**
 * Every visible text in the chat's bubbles, the pending bubble, the receipt and the "Not sent" line
 * whose contrast (WCAG: from the computed colours, the backgrounds behind it composed, an ancestor's
 * opacity applied) is below 4.5:1 (3:1 for large text).
 */
const lowContrastTexts = (page: Page) =>
  page.evaluate(() => {
    type Rgba = [number, number, number, number];
    const parse = (value: string): Rgba => {
      const parts =
        /rgba?\(([^)]+)\)/
          .exec(value)?.[1]
          ?.split(/[\s,/]+/)
          .filter(Boolean) ?? [];
      const [r = 0, g = 0, b = 0, a = 1] = parts.map(Number);
      return [r, g, b, parts.length > 3 ? a : 1];
    };
    const over = (top: Rgba, below: Rgba): Rgba => {
      const a = top[3] + below[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      const mix = (i: 0 | 1 | 2) => (top[i] * top[3] + below[i] * below[3] * (1 - top[3])) / a;
      return [mix(0), mix(1), mix(2), a];
    };
    /** The background an element's content is drawn on (its own and its ancestors', composed). */
    const backdrop = (element: Element | null): Rgba => {
      const layers: Rgba[] = [];
      for (let at = element; at; at = at.parentElement) {
        const colour = parse(getComputedStyle(at).backgroundColor);
        if (colour[3] > 0) layers.push(colour);
        if (colour[3] === 1) break;
      }
      return layers.reduceRight<Rgba>((below, top) => over(top, below), [255, 255, 255, 1]);
    };
    const luminance = ([r, g, b]: Rgba) => {
      const channel = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const ratio = (a: Rgba, b: Rgba) => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
      return (light + 0.05) / (dark + 0.05);
    };
    const scopes = document.querySelectorAll(
      '[data-testid="chat-message"], [data-testid="pending-message"], [data-testid="send-failed"], .message-receipt',
    );
    const found: string[] = [];
    const walker = (scope: Element) => document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    for (const scope of scopes) {
      const texts = walker(scope);
      for (let node = texts.nextNode(); node; node = texts.nextNode()) {
        const element = node.parentElement;
        if (!element || !node.textContent?.trim()) continue;
        const box = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        if (box.width <= 1 || box.height <= 1 || style.visibility === 'hidden') continue;
        // text drawn fully transparent is not shown (Edit and Delete until hover or focus)
        let shown = true;
        for (let at: Element | null = element; at; at = at.parentElement)
          if (Number(getComputedStyle(at).opacity) === 0) shown = false;
        if (!shown) continue;
        let fg = parse(style.color);
        let bg = backdrop(element);
        // an ancestor drawn translucent: its text and background both mix with what is below it
        for (let at: Element | null = element; at; at = at.parentElement) {
          const opacity = Number(getComputedStyle(at).opacity);
          if (opacity < 1) {
            const below = backdrop(at.parentElement);
            fg = over([fg[0], fg[1], fg[2], opacity], below);
            bg = over([bg[0], bg[1], bg[2], opacity], below);
          }
        }
        fg = over(fg, bg);
        const size = parseFloat(style.fontSize);
        const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
        const value = ratio(fg, bg);
        if (value < (large ? 3 : 4.5))
          found.push(`"${node.textContent.trim().slice(0, 40)}" ${value.toFixed(2)}:1`);
      }
    }
    return found;
  });

describe('issue 32: the page looks right', () => {
  const suite = useE2eSuite({
    failOnConsoleErrors: true,
    allowConsole: [/send|Failed to fetch|ERR_/i],
  });
  const tag = uniqueTag();

  beforeAll(async () => {
    // unread badges on the rows whose names were cut: Omar writes to Acme, Acme to Sara
    const sara = await signInOverHttp(suite.url, SARA.email);
    const omar = await signInOverHttp(suite.url, OMAR.email);
    const acme = await signInOverHttp(suite.url, ACME.email);
    expect(
      (await sendMessage(omar, await conversationWith(omar, acme.userId), `Hi ${tag}`)).status,
    ).toBe(200);
    const toSara = await conversationWith(acme, sara.userId);
    const toAcme = await conversationWith(sara, acme.userId);
    const cv = await uploadFile(
      suite.url,
      sara,
      'Sara-Haddad-CV.pdf',
      Buffer.from('%PDF-1.4\n% cv\n'),
    );
    const offer = await uploadFile(suite.url, acme, 'offer-letter.txt', Buffer.from('the offer'));
    const contract = await uploadFile(
      suite.url,
      acme,
      'contract.pdf',
      Buffer.from('%PDF-1.4\n% c\n'),
    );
    expect(
      (
        await sendMessage(sara, toAcme, `My CV, see www.example.com/sara ${tag}`, {
          attachmentIds: [cv],
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await sendMessage(acme, toSara, `Our offer and contract ${tag}`, {
          attachmentIds: [offer, contract],
        })
      ).status,
    ).toBe(200);
  });

  it.each([
    ['1366×768', LAPTOP, false],
    ['390×844', PHONE, true],
    ['375×812', { width: 375, height: 812 }, true],
  ] as const)(
    'at %s no demo name is cut while the row has room (badges and archive buttons shown)',
    async (_label, viewport, touch) => {
      for (const account of [SARA, ACME, OMAR, HARBOR] as DemoAccount[]) {
        const user = await suite.newUser(`names-${account.key}-${viewport.width}`, {
          viewport,
          touch,
        });
        await signInWithForm(user.page, account);
        await conversationList(user.page).waitFor();
        const rows = user.page.getByTestId('conversation-row');
        // each row with its archive button showing (hover), the way the issue saw them
        for (let index = 0; index < (await rows.count()); index += 1) {
          if (!touch) await rows.nth(index).hover();
          expect(await cutNames(user.page), `${account.name}'s list, row ${index}`).toEqual([]);
        }
        await suite.close(user);
      }
    },
  );

  it('every text in own and received bubbles, file cards, pending and failed states reaches 4.5:1', async () => {
    const user = await suite.newUser('contrast', { viewport: LAPTOP });
    await signInWithForm(user.page, SARA);
    const page = user.page;
    await openConversation(page, ACME.name);
    await chatMessages(page, `Our offer and contract ${tag}`).waitFor();
    // a send held on the way (pending bubble), then one that fails ("Not sent. Retry")
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/user/send/message**', async (route) => {
      await held;
      await route.abort('failed');
    });
    await messageInput(page).fill(`Held on its way ${tag} https://example.org`);
    await messageInput(page).press('Enter');
    await page.getByTestId('pending-message').waitFor();
    const pending = await lowContrastTexts(page);
    release();
    await page.getByTestId('send-failed').waitFor();
    const failed = await lowContrastTexts(page);
    await page.unroute('**/user/send/message**');
    // the own bubble's file card and the received ones were measured too
    expect(await page.locator('.message--own .message__file-name').count()).toBeGreaterThan(0);
    expect(await page.locator('.message--other .message__file-name').count()).toBeGreaterThan(1);
    expect({ pending, failed }).toEqual({ pending: [], failed: [] });
    await suite.close(user);
  });

  it('the message box grows with the text to about 8 lines, then scrolls inside (laptop and phone)', async () => {
    for (const [label, viewport, touch] of [
      ['laptop', LAPTOP, false],
      ['phone', PHONE, true],
    ] as const) {
      const user = await suite.newUser(`composer-${label}`, { viewport, touch });
      await signInWithForm(user.page, SARA);
      if (touch) await row(conversationList(user.page), ACME.name).click();
      else await openConversation(user.page, ACME.name);
      const box = messageInput(user.page);
      await expect.poll(() => box.isEnabled(), WAIT).toBe(true);
      const measure = () =>
        box.evaluate((element) => {
          const lineHeight = parseFloat(getComputedStyle(element).lineHeight);
          return {
            lines: Math.round((element.clientHeight - 16) / lineHeight),
            scrolls: element.scrollHeight > element.clientHeight + 1,
            // how many characters a line holds: the box's text width over an average character
            width: element.clientWidth,
          };
        });
      const empty = await measure();
      expect(empty.lines, `${label}: an empty box`).toBeLessThanOrEqual(2);
      await box.fill('one\ntwo\nthree\nfour\nfive');
      await expect.poll(async () => (await measure()).lines, { ...WAIT, message: label }).toBe(5);
      expect((await measure()).scrolls, `${label}: five lines need no scrolling`).toBe(false);
      await box.fill('A long message. '.repeat(320)); // 5,120 characters
      const full = await measure();
      expect(full.lines, `${label}: a long message`).toBeGreaterThanOrEqual(7);
      expect(full.lines, `${label}: a long message`).toBeLessThanOrEqual(9);
      expect(full.scrolls, `${label}: the rest scrolls inside`).toBe(true);
      // the composer still leaves the conversation visible, and the box is wide enough for a sentence
      expect(full.width, `${label}: box width`).toBeGreaterThanOrEqual(
        label === 'phone' ? 220 : 600,
      );
      await box.fill('');
      await expect.poll(async () => (await measure()).lines, WAIT).toBeLessThanOrEqual(2);
      await suite.close(user);
    }
  });

  it('at 1920×1080 the list and the chat use the window height, and the list is wider', async () => {
    const user = await suite.newUser('big', { viewport: BIG });
    await signInWithForm(user.page, SARA);
    const page = user.page;
    const bottomOf = (selector: string) =>
      page.locator(selector).evaluate((element) => element.getBoundingClientRect().bottom);
    // nothing open: the placeholder fills the height
    expect(await bottomOf('[data-testid="chat-placeholder"]')).toBeGreaterThanOrEqual(
      BIG.height - 32,
    );
    await openConversation(page, ACME.name);
    expect(await bottomOf('[data-testid="chat-pane"]')).toBeGreaterThanOrEqual(BIG.height - 32);
    expect(await bottomOf('.messenger__sidebar')).toBeGreaterThanOrEqual(BIG.height - 32);
    const listWidth = await page
      .locator('.messenger__sidebar')
      .evaluate((element) => element.getBoundingClientRect().width);
    expect(listWidth).toBeGreaterThanOrEqual(420);
    await suite.close(user);
  });

  it('the headings and the empty state read well in English and Arabic, keeping the spec’s words', async () => {
    const user = await suite.newUser('wording', { viewport: LAPTOP });
    await signInWithForm(user.page, SARA);
    const page = user.page;
    // the spec's words, word for word, shown as sentences (a capital first letter)
    const heading = page.getByRole('heading', { name: /^all messages$/i });
    await heading.waitFor();
    const placeholder = page.getByTestId('chat-placeholder');
    const title = placeholder.getByRole('heading', { name: /^no message item selected$/i });
    const text = placeholder.locator('.chat-placeholder__text');
    expect(await heading.textContent()).toBe('all messages');
    expect(await title.textContent()).toBe('no message item selected');
    expect(await text.textContent()).toBe('please select message item from messages list');
    for (const shown of [heading, title, text])
      expect(
        await shown.evaluate(
          (element) => getComputedStyle(element, '::first-letter').textTransform,
        ),
      ).toBe('uppercase');
    // a friendlier word than the bare instruction
    expect(
      (await placeholder.innerText()).split('\n').filter(Boolean).length,
    ).toBeGreaterThanOrEqual(3);
    // a conversation without a job: the spec's 'No Title', muted so that it does not read as a job
    const job = row(page, HARBOR.name).locator('.conversation-row__job');
    expect(await job.textContent()).toBe('No Title');
    expect(await job.evaluate((element) => element.classList.contains('is-none'))).toBe(true);
    await page.goto('/messages?lang=ar');
    await page.getByRole('heading', { name: 'كل الرسائل', exact: true }).waitFor();
    const arabic = (await page.getByTestId('chat-placeholder').innerText())
      .split('\n')
      .filter(Boolean);
    expect(arabic.length).toBeGreaterThanOrEqual(3);
    for (const line of arabic) expect(line).toMatch(/[\u0600-\u06ff]/);
    // `?lang=` is saved as Sara's language: English again for the tests after this one
    await openMessagesIn(page, 'en');
    await suite.close(user);
  });

  it('on a phone the list is the page: the whole title shows and no drawer button repeats the list', async () => {
    const user = await suite.newUser('phone-header', { viewport: PHONE, touch: true });
    await signInWithForm(user.page, SARA);
    const page = user.page;
    await conversationList(page).waitFor();
    const title = page.getByRole('heading', { level: 1, name: 'Messages', exact: true });
    const titleCut = () => title.evaluate((element) => element.scrollWidth > element.clientWidth);
    expect(await titleCut()).toBe(false);
    expect(await page.getByTestId('open-drawer').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Messages', exact: true }).count()).toBe(0);
    // an open chat still offers the list (the spec's drawer) and the title still shows whole
    await row(conversationList(page), ACME.name).click();
    await page.getByTestId('chat-pane').waitFor();
    await page.getByTestId('open-drawer').waitFor();
    expect(await titleCut()).toBe(false);
    // back on the list, no drawer button again
    await page.getByRole('button', { name: 'Back to conversations', exact: true }).click();
    await conversationList(page).waitFor();
    expect(await page.getByTestId('open-drawer').count()).toBe(0);
    await suite.close(user);
  });

  it('a bare www. address is a link, and received PDF and TXT cards show their kind and a download cue', async () => {
    const user = await suite.newUser('links-files', { viewport: LAPTOP });
    await signInWithForm(user.page, ACME);
    const page = user.page;
    await openConversation(page, SARA.name);
    const mine = chatMessages(page, `My CV, see www.example.com/sara ${tag}`);
    const link = mine.getByRole('link', { name: 'www.example.com/sara', exact: true });
    expect(await link.getAttribute('href')).toBe('https://www.example.com/sara');
    const card = mine.getByRole('link', { name: /Sara-Haddad-CV\.pdf/ });
    expect(await card.getAttribute('download')).toBe('Sara-Haddad-CV.pdf');
    // the card has a file icon saying its kind, and a visible download sign
    expect(await card.locator('svg').count()).toBeGreaterThanOrEqual(2);
    expect((await card.innerText()).split('\n')[0]?.trim()).toBe('PDF');
    await expect.poll(() => card.getAttribute('title'), WAIT).toBe('Download Sara-Haddad-CV.pdf');
    await suite.close(user);

    const sara = await suite.newUser('links-files-sara', { viewport: LAPTOP });
    await signInWithForm(sara.page, SARA);
    await openConversation(sara.page, ACME.name);
    const received = chatMessages(sara.page, `Our offer and contract ${tag}`);
    for (const [name, kind] of [
      ['offer-letter.txt', 'TXT'],
      ['contract.pdf', 'PDF'],
    ] as const) {
      const file = received.getByRole('link', { name: new RegExp(name.replace('.', '\\.')) });
      expect(await file.locator('svg').count(), name).toBeGreaterThanOrEqual(2);
      expect((await file.innerText()).split('\n')[0]?.trim(), name).toBe(kind);
      expect(await file.getAttribute('title'), name).toBe(`Download ${name}`);
    }
    await suite.close(sara);
  });
});
