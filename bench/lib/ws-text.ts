import type { RawData } from 'ws';

/** A websocket message as text, whatever form `ws` hands it over in. */
export const rawText = (raw: RawData): string => {
  if (Buffer.isBuffer(raw)) return raw.toString('utf8');
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return Buffer.from(raw).toString('utf8');
};
