import { useEffect, useRef, useState, type FocusEvent } from 'react';

/** How long a toast stays while it is neither hovered nor focused. */
export const TOAST_SHOWN_MS = 8_000;

interface ToastProps {
  message: string;
  actionLabel: string;
  onAction: () => void;
  /** Its time is up, or Escape was pressed inside it. */
  onDismiss: () => void;
  durationMs?: number;
  testId?: string;
}

/**
 * A short visible confirmation with one action ("Archived · Undo"). It never takes the focus; it
 * stays while the pointer is over it or the focus is in it (WCAG 2.2.1), and Escape closes it.
 * Screen readers hear the page's own announcement, so the toast is no live region of its own.
 */
export const Toast = ({
  message,
  actionLabel,
  onAction,
  onDismiss,
  durationMs = TOAST_SHOWN_MS,
  testId,
}: ToastProps) => {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const dismiss = useRef(onDismiss);
  useEffect(() => {
    dismiss.current = onDismiss;
  });
  const held = hovered || focused;
  useEffect(() => {
    if (held) return;
    const timer = setTimeout(() => dismiss.current(), durationMs);
    return () => clearTimeout(timer);
  }, [held, durationMs]);

  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
  };

  return (
    <div className="toast-region">
      <div
        className="toast"
        data-testid={testId}
        onMouseEnter={() => setHovered(true)}
        onMouseLeave={() => setHovered(false)}
        onFocus={() => setFocused(true)}
        onBlur={onBlur}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onDismiss();
        }}
      >
        <span className="toast__message">{message}</span>
        <span className="toast__separator" aria-hidden="true">
          ·
        </span>
        <button type="button" className="toast__action" onClick={onAction}>
          {actionLabel}
        </button>
      </div>
    </div>
  );
};
