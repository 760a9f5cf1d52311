import { pagePaths, sameOriginPath } from '../../../lib/contract.js';

/** The `next` query parameter when it is a same-origin path ("/…", not "//…" or "/\…"), else /messages. */
export const safeNextPath = (search: string): string =>
  sameOriginPath(new URLSearchParams(search).get('next')) ?? pagePaths.messages;
