import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { Composer } from '../../../lib/composer-tool.js';

/**
 * While the list is open by `/`, the message box drives it: the box's keys go to `onListKey`
 * first (the latest one), and the box points at the popup and its highlighted option.
 */
export const useDriveFromMessageBox = ({
  driving,
  drive,
  popupId,
  activeId,
  onListKey,
}: {
  driving: boolean;
  drive: Composer['drive'];
  popupId: string;
  activeId: string | undefined;
  /** The list's keys; true: handled. */
  onListKey: (event: KeyboardEvent<HTMLElement>) => boolean;
}) => {
  const onListKeyRef = useRef(onListKey);
  useEffect(() => {
    onListKeyRef.current = onListKey;
  });
  useEffect(() => {
    if (!driving) return;
    drive({
      onKeyDown: (event) => onListKeyRef.current(event),
      controls: popupId,
      activeDescendant: activeId,
    });
  }, [driving, drive, popupId, activeId]);
  useEffect(() => {
    if (!driving) return;
    return () => drive(null);
  }, [driving, drive]);
};
