import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineRouteFor } from './route.js';

const defineRoute = defineRouteFor<unknown>({
  tag: 'settings',
  security: [],
  errors: [401, 503],
});
const declaration = {
  method: 'post' as const,
  path: '/things',
  operationId: 'createThing',
  summary: 'A thing',
  handler: async () => ({}),
};

describe('defineRouteFor', () => {
  it("adds the plugin's usual error answers, and the body errors when a body is parsed", () => {
    const withoutBody = defineRoute({
      ...declaration,
      responses: { 201: { description: 'Made.' } },
    });
    expect(Object.keys(withoutBody.responses)).toEqual(['201', '401', '503']);
    const withBody = defineRoute({
      ...declaration,
      body: z.object({ name: z.string() }),
      responses: { 201: { description: 'Made.' } },
    });
    expect(Object.keys(withBody.responses)).toEqual(['201', '400', '401', '413', '503']);
  });

  it("refuses a route that declares one of the plugin's usual answers itself", () => {
    expect(() =>
      defineRoute({ ...declaration, responses: { 401: { description: 'Not signed in.' } } }),
    ).toThrow("createThing: answers 401 are the plugin's usual ones");
  });
});
