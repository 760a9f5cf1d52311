import axe from 'axe-core';

/**
 * axe-core's violations in an element (WCAG 2.0/2.1 A and AA, best practices), one line each;
 * jsdom has no layout, so contrast is left to the browser suite, and so are landmarks.
 */
export const axeViolations = async (element: Element): Promise<string[]> => {
  const { violations } = await axe.run(element, {
    runOnly: {
      type: 'tag',
      values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
    },
    rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
  });
  return violations.map((violation) => `${violation.id}: ${violation.help}`);
};
