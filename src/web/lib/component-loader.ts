/**
 * A component whose code is a chunk of its own: `preload` loads it once (a failed load is tried
 * again by the next call), and `loaded` gives it once it is there, so that it can be rendered
 * directly (a `React.lazy` component suspends on its first render even when its import has long
 * resolved).
 */
export const createComponentLoader = <C>(load: () => Promise<C>) => {
  let loaded: C | null = null;
  let pending: Promise<C> | null = null;
  return {
    preload: (): Promise<C> => {
      pending ??= load().then(
        (component) => {
          loaded = component;
          return component;
        },
        (error: unknown) => {
          pending = null; // the next call tries again
          throw error;
        },
      );
      return pending;
    },
    loaded: (): C | null => loaded,
  };
};
