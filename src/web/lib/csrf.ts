/** The placeholder the server replaces in the HTML; seen unreplaced under the Vite dev server. */
const UNREPLACED_META = '__CSRF_TOKEN__';

export const readCookie = (name: string): string | null => {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [rawKey, ...rest] = part.split('=');
    if (rawKey?.trim() === name) {
      const value = rest.join('=').trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return null;
};

export const readMetaCsrfToken = (): string | null => {
  if (typeof document === 'undefined') return null;
  const content = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content');
  return content && content !== UNREPLACED_META ? content : null;
};

/** `X-XSRF-TOKEN` from the `XSRF-TOKEN` cookie, else `X-CSRF-TOKEN` from the meta tag. */
export const csrfHeaders = (): Record<string, string> => {
  const cookie = readCookie('XSRF-TOKEN');
  if (cookie) return { 'X-XSRF-TOKEN': cookie };
  const meta = readMetaCsrfToken();
  return meta ? { 'X-CSRF-TOKEN': meta } : {};
};
