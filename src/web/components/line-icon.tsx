import type { ReactNode } from 'react';

interface IconFrameProps {
  /** Its width and height in CSS pixels (22 unless told). */
  size?: number;
  className?: string;
  /** The square the shapes are drawn in (24 × 24 unless told). */
  viewSize?: number;
}

/** A decorative icon (its shapes are the children): hidden, the button names the action. */
export const Icon = ({
  size = 22,
  className,
  viewSize = 24,
  children,
}: IconFrameProps & { children: ReactNode }) => (
  <svg
    className={className}
    viewBox={`0 0 ${viewSize} ${viewSize}`}
    width={size}
    height={size}
    aria-hidden="true"
    focusable="false"
  >
    {children}
  </svg>
);

/** A decorative line icon (a path drawn in the text colour): the button names the action. */
export const LineIcon = ({
  path,
  strokeWidth = 2,
  ...frame
}: IconFrameProps & { path: string; strokeWidth?: number }) => (
  <Icon {...frame}>
    <path
      d={path}
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  </Icon>
);
