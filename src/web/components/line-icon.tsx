/** A decorative line icon (a path drawn in the text colour): the button names the action. */
export const LineIcon = ({
  path,
  size = 22,
  strokeWidth = 2,
  className,
  viewSize = 24,
}: {
  path: string;
  size?: number;
  strokeWidth?: number;
  className?: string;
  /** The square the path is drawn in (24 × 24 unless told). */
  viewSize?: number;
}) => (
  <svg
    className={className}
    viewBox={`0 0 ${viewSize} ${viewSize}`}
    width={size}
    height={size}
    aria-hidden="true"
    focusable="false"
  >
    <path
      d={path}
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  </svg>
);
