/** Tries again what failed (a load, a send): a button of these words. */
export const RetryButton = ({
  label,
  onRetry,
  variant,
}: {
  label: string;
  /** What it answers (a refetch's promise) is not waited for. */
  onRetry: () => unknown;
  variant: 'link' | 'secondary';
}) => (
  <button type="button" className={`button button--${variant}`} onClick={() => void onRetry()}>
    {label}
  </button>
);
