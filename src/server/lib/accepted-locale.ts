import type { Locale } from '../../shared/integration.js';

/**
 * The visitor's language from Accept-Language: the preferred (highest q) of Arabic and English,
 * English when neither is named.
 */
export const acceptedLocale = (header: string | undefined): Locale => {
  let best: { locale: Locale; q: number } | undefined;
  for (const part of (header ?? '').split(',')) {
    const [tag = '', ...params] = part.trim().toLowerCase().split(';');
    const primary = tag.trim().split('-')[0];
    if (primary !== 'ar' && primary !== 'en') continue;
    const qParam = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { locale: primary, q };
  }
  return best?.locale ?? 'en';
};
