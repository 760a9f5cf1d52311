import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { savedRepliesPaths } from '../src/shared/saved-replies.js';
import { ACME, SARA } from '../test-support/accounts.js';
import { WAIT, waitForValue } from '../test-support/wait.js';
import { expectNoAxeViolations } from './support/axe.js';
import { WIDE } from './support/browser.js';
import {
  expectMessageOnce,
  messageInput,
  openConversation,
  uniqueTag,
  waitForLive,
} from './support/messages-page.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

/** The demo job Acme and Sara talk about. */
const JOB_TITLE = 'Senior Robotics Engineer';

const isFocused = (page: Page, locator: ReturnType<Page['getByRole']>) =>
  locator.evaluate((element) => element === document.activeElement);

/**
 * Saved replies in the browser against the real server: the company adds one with variables on
 * the manage screen, inserts it in a conversation about a job with `/` and the keyboard, sees the
 * variables filled, sends it, and the candidate's page receives exactly that text.
 */
describe('saved replies', () => {
  const suite = useE2eSuite({ failOnConsoleErrors: true });

  it('Acme adds a saved reply with variables, inserts it with / + Enter for Sara about the job, and Sara receives exactly the filled text', async () => {
    const acme = await suite.newUser('acme', { viewport: WIDE, bypassCSP: true });
    const sara = await suite.newUser('sara', { viewport: WIDE });
    await signInWithForm(acme.page, ACME);
    await signInWithForm(sara.page, SARA);
    await openConversation(sara.page, ACME.name);
    await waitForLive(sara);
    await openConversation(acme.page, SARA.name);
    const page = acme.page;
    const tag = uniqueTag();

    // the manage screen, from the composer's picker
    await page.getByRole('button', { name: 'Saved replies', exact: true }).click();
    await page.getByRole('combobox', { name: 'Search saved replies' }).waitFor();
    await page.getByRole('button', { name: 'Manage saved replies', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Saved replies' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Add saved reply', exact: true }).click();
    await dialog.getByLabel('Name', { exact: true }).fill(`Follow-up ${tag}`);
    const body = dialog.getByLabel('Text', { exact: true });
    await body.fill(`Hello {{candidate.first_name}}, about the {{job.title}} role (ref ${tag}). `);
    await dialog.getByRole('button', { name: 'My name', exact: true }).click();
    await waitForValue(
      () => body.inputValue(),
      `Hello {{candidate.first_name}}, about the {{job.title}} role (ref ${tag}). {{me.name}}`,
      'the text with the chip’s variable at its end',
    );
    await expectNoAxeViolations(page, 'the saved replies screen with its form');
    const saved = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' &&
        new URL(response.url()).pathname === savedRepliesPaths.templates,
    );
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    expect((await saved).status()).toBe(201);
    await dialog.getByText(`Follow-up ${tag}`, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    // `/` first in the empty message box opens the list; what follows filters it; Enter inserts
    const input = messageInput(page);
    await expect.poll(() => isFocused(page, input as never), WAIT).toBe(true);
    await page.keyboard.type('/');
    await page.getByTestId('saved-replies-picker').waitFor();
    await page.keyboard.type(tag);
    const options = page.getByRole('listbox', { name: 'Saved replies' }).getByRole('option');
    await waitForValue(() => options.count(), 1, 'the saved replies matching the tag');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const expected = `Hello Sara, about the ${JOB_TITLE} role (ref ${tag}). ${ACME.name}`;
    await waitForValue(() => input.inputValue(), expected, 'the filled reply in the message box');
    await page.getByTestId('saved-replies-picker').waitFor({ state: 'detached' });
    // inserted, not sent: the caret at its end, in the box
    expect(await isFocused(page, input as never)).toBe(true);
    expect(await input.evaluate((box) => (box as HTMLTextAreaElement).selectionStart)).toBe(
      expected.length,
    );

    await page.keyboard.press('Enter');
    await expectMessageOnce(page, expected);
    await expectMessageOnce(sara.page, expected);
    await waitForValue(() => input.inputValue(), '', 'the message box after sending');
  });
});
