import { pagePaths, sameOriginPath } from '../../../lib/contract.js';

/** The `next` query parameter, normalized as the browser will, when that is a path of this site (`sameOriginPath`), else /messages. */
export const safeNextPath = (search: string): string =>
  sameOriginPath(new URLSearchParams(search).get('next')) ?? pagePaths.messages;
