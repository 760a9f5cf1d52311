import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium: browser downloads are impossible here, so playwright-core drives this one. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Headless Chromium for the browser tests, fault tests and benchmarks. The background-networking
 * flags keep it from reaching out of this closed machine (those attempts are refused, many at a time).
 */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
