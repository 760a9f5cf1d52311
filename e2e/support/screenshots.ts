import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';

const ROOT = resolve(import.meta.dirname, '../..');
export const ARTIFACT_DIR = join(ROOT, 'test-results', 'screenshots');
export const DOCS_DIR = join(ROOT, 'docs', 'screenshots');

/** Lets images and web fonts settle (a few seconds at most) so the picture shows the page as a person sees it. */
const settle = async (page: Page) => {
  await page.evaluate(async () => {
    window.scrollTo(0, 0);
    const pending = Array.from(document.images)
      .filter((image) => !image.complete)
      .map(
        (image) =>
          new Promise<void>((done) => {
            image.addEventListener('load', () => done(), { once: true });
            image.addEventListener('error', () => done(), { once: true });
          }),
      );
    const loaded = Promise.all([document.fonts.ready, ...pending]);
    await Promise.race([loaded, new Promise((done) => setTimeout(done, 5000))]);
  });
};

/**
 * Saves a viewport screenshot (or, with `element`, one of that element only) as a test artifact
 * (`test-results/screenshots/<name>.png`) and, with `docs: true`, also copies it to
 * `docs/screenshots/<name>.png` (the README and the docs show those).
 */
export const saveScreenshot = async (
  page: Page,
  name: string,
  options: { docs?: boolean; element?: Locator } = {},
): Promise<string> => {
  mkdirSync(ARTIFACT_DIR, { recursive: true });
  await settle(page);
  const artifact = join(ARTIFACT_DIR, `${name}.png`);
  const shot = { path: artifact, animations: 'disabled', caret: 'hide' } as const;
  await (options.element ? options.element.screenshot(shot) : page.screenshot(shot));
  if (options.docs) {
    mkdirSync(DOCS_DIR, { recursive: true });
    copyFileSync(artifact, join(DOCS_DIR, `${name}.png`));
  }
  return artifact;
};
