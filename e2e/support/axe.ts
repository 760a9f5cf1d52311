import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Frame, Page } from 'playwright-core';

/** WCAG 2.0 and 2.1, levels A and AA, plus axe's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] as const;

/** A scan fails on violations of these impacts… */
const FAILING_IMPACTS = new Set(['serious', 'critical']);
/** …and on these rules at any impact (axe rates them moderate): all content in landmarks, each landmark named apart. */
const ALWAYS_FAILING_RULES = new Set(['region', 'landmark-unique']);

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; summary: string }[];
}

let axeSource: string | null = null;

/** axe-core's own bundle (`axe.min.js` next to the package's entry). */
const readAxeSource = (): string => {
  if (axeSource === null) {
    const entry = createRequire(import.meta.url).resolve('axe-core');
    axeSource = readFileSync(join(dirname(entry), 'axe.min.js'), 'utf8');
  }
  return axeSource;
};

/**
 * Runs axe-core in the page, or in one of its frames (injected once per document), and returns the
 * violations a test fails on: serious and critical ones, and landmark ones (`ALWAYS_FAILING_RULES`).
 */
export const failingViolations = async (page: Page | Frame): Promise<AxeViolation[]> => {
  const injected = await page.evaluate(() => 'axe' in window);
  if (!injected) await page.addScriptTag({ content: readAxeSource() });
  const violations = await page.evaluate(
    async (tags) => {
      const axe = (
        window as unknown as {
          axe: {
            run: (
              context: Document,
              options: object,
            ) => Promise<{
              violations: {
                id: string;
                impact?: string | null;
                help: string;
                nodes: { target: unknown[]; failureSummary?: string }[];
              }[];
            }>;
          };
        }
      ).axe;
      const result = await axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      return result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? null,
        help: violation.help,
        nodes: violation.nodes.map((node) => ({
          target: node.target.map((part) =>
            typeof part === 'string' ? part : JSON.stringify(part),
          ),
          summary: (node.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
        })),
      }));
    },
    [...AXE_TAGS],
  );
  return violations.filter(
    (violation) =>
      FAILING_IMPACTS.has(violation.impact ?? '') || ALWAYS_FAILING_RULES.has(violation.id),
  );
};

/** One readable line per violation and affected element. */
export const describeViolations = (violations: readonly AxeViolation[]): string =>
  violations
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `- ${violation.id} (${violation.impact ?? 'unknown'}): ${violation.help}\n    at ${node.target.join(
            ' ',
          )}\n    ${node.summary}`,
      ),
    )
    .join('\n');

/** Fails with the list of the page's failing violations (see `failingViolations`) as it is now. */
export const expectNoAxeViolations = async (page: Page | Frame, what: string): Promise<void> => {
  const violations = await failingViolations(page);
  if (violations.length > 0) {
    throw new Error(
      `axe-core found ${violations.length} violation(s) on ${what}:\n${describeViolations(violations)}`,
    );
  }
};
