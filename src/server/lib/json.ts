/** The JSON value `text` holds, or undefined when it is not JSON (the caller's schema then refuses it). */
export const jsonOrUndefined = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};
