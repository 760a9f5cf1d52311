import { describe, expect, it } from 'vitest';
import { WAIT } from '../test-support/wait.js';
import { useE2eSuite } from './support/suite.js';

/**
 * The API reference page as a newcomer opens it: Swagger UI renders the OpenAPI document, with every
 * file from this server and nothing refused by the page's Content Security Policy.
 */
describe('the API reference page', () => {
  const suite = useE2eSuite({ failOnConsoleErrors: true, env: { DEMO_SEED: 'off' } });

  it('renders the operations, their descriptions and their fields, loading only from this server', async () => {
    const reader = await suite.newUser('reader');
    const requested: string[] = [];
    reader.page.on('request', (request) => requested.push(request.url()));
    const violations: string[] = [];
    await reader.page.exposeFunction('reportCspViolation', (text: string) => {
      violations.push(text);
    });
    await reader.page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        void (
          window as unknown as { reportCspViolation: (text: string) => void }
        ).reportCspViolation(`${event.violatedDirective} ${event.blockedURI}`);
      });
    });

    await reader.page.goto('/api/docs');
    const summary = reader.page.getByText(
      'Start (or find) a conversation, optionally with a first message',
      { exact: true },
    );
    await expect.poll(() => summary.isVisible(), WAIT).toBe(true);

    // an operation opens on its description and its parameters' descriptions
    await summary.click();
    await expect
      .poll(
        () =>
          reader.page
            .getByText(/What a "Message the candidate" button on a job page calls/)
            .isVisible(),
        WAIT,
      )
      .toBe(true);
    const upsert = reader.page.getByText('Create or update a user by the host’s id', {
      exact: true,
    });
    await upsert.click();
    await expect
      .poll(
        () =>
          reader.page
            .getByText(/The user’s id on the host site/)
            .first()
            .isVisible(),
        WAIT,
      )
      .toBe(true);

    const origin = new URL(suite.url).origin;
    expect(requested.length).toBeGreaterThan(3);
    expect(
      requested.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin),
    ).toEqual([]);
    expect(requested).toContain(`${origin}/api/v1/openapi.json`);
    expect(violations).toEqual([]);
    expect(reader.problems.consoleErrors).toEqual([]);
  });
});
