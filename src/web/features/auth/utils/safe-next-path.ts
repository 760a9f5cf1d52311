import { pagePaths } from '../../../lib/contract.js';

/** The `next` query parameter when it is a same-origin path ("/…", not "//…" or "/\…"), else /messages. */
export const safeNextPath = (search: string): string => {
  const next = new URLSearchParams(search).get('next');
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\'))
    return pagePaths.messages;
  if ([...next].some((char) => char.charCodeAt(0) < 0x20)) return pagePaths.messages;
  return next;
};
