import { pagePaths } from '../../../lib/contract.js';

/** The `next` query parameter when it is a same-origin path ("/…", not "//…" or "/\…"), else /messages. */
export const safeNextPath = (search: string): string => {
  const next = new URLSearchParams(search).get('next');
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\'))
    return pagePaths.messages;
  if (/[\u0000-\u001f]/.test(next)) return pagePaths.messages;
  return next;
};
