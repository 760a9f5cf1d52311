interface SpinnerProps {
  label: string;
  size?: 'sm' | 'md';
}

/** A spinner announced as a status. */
export const Spinner = ({ label, size = 'md' }: SpinnerProps) => (
  <span className={`spinner spinner--${size}`} role="status" aria-live="polite">
    <span className="spinner__ring" aria-hidden="true" />
    <span className="visually-hidden">{label}</span>
  </span>
);
