/** A decorative line icon (24 × 24 path, drawn in the text colour): the button names the action. */
export const LineIcon = ({
  path,
  size = 22,
  strokeWidth = 2,
  className,
}: {
  path: string;
  size?: number;
  strokeWidth?: number;
  className?: string;
}) => (
  <svg
    className={className}
    viewBox="0 0 24 24"
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
