import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
} from 'react';
import type { MessengerUser, Role } from '../../../../shared/models.js';
import { holdDeferredImages } from '../../../components/avatar.js';
import { ConversationRow } from './conversation-row.js';

/** Rows have one fixed height, so 10,000 of them cost no measuring. */
export const CONVERSATION_ROW_HEIGHT = 76;

interface ConversationListProps {
  items: readonly MessengerUser[];
  viewerRole: Role;
  selectedId: number | null;
  archived: boolean;
  label: string;
  testId: 'conversation-list' | 'archived-list';
  /** Max height in px (944 alone, 320 with an archived section, 350 for the archived list). */
  maxHeight: number;
  now: number;
  onSelect: (item: MessengerUser) => void;
  onToggleArchive: (item: MessengerUser, archive: boolean) => void;
  /** More rows are on the server: `onLoadMore` is called as the end of the loaded rows comes near. */
  hasMore?: boolean;
  onLoadMore?: () => void;
}

/** The next page is asked for when the rendered rows come this close to the last loaded one. */
const LOAD_MORE_WITHIN_ROWS = 15;

/** The list item (slot) an element inside a row sits in, and that row's index. */
const indexOfSlot = (element: HTMLElement): number | null => {
  const position = element.closest<HTMLElement>('[role="listitem"]')?.getAttribute('aria-posinset');
  return position ? Number(position) - 1 : null;
};

/**
 * A virtualized list of conversation rows, one Tab stop (roving tabindex): only the current row (the
 * last one focused, else the open conversation's, else the first) and its archive button are in the Tab
 * order; Arrow Up/Down, Home and End move between rows (scrolled into view first), Enter or Space opens
 * one. The current row is always rendered, even when scrolled out of view, so the Tab stop never goes.
 */
export const ConversationList = ({
  items,
  viewerRole,
  selectedId,
  archived,
  label,
  testId,
  maxHeight,
  now,
  onSelect,
  onToggleArchive,
  hasMore = false,
  onLoadMore,
}: ConversationListProps) => {
  const scrollRef = useRef<HTMLDivElement>(null);
  const pendingFocus = useRef<number | null>(null);
  const [currentId, setCurrentId] = useState<number | null>(null);
  const indexOfId = (id: number | null) =>
    id === null ? -1 : items.findIndex((item) => item.id === id);
  const focusedIndex = indexOfId(currentId);
  const currentIndex = focusedIndex >= 0 ? focusedIndex : Math.max(0, indexOfId(selectedId));
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (currentIndex < range.count && !indexes.includes(currentIndex)) {
        indexes.push(currentIndex);
        indexes.sort((a, b) => a - b);
      }
      return indexes;
    },
    [currentIndex],
  );
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => CONVERSATION_ROW_HEIGHT,
    getItemKey: (index) => items[index]?.id ?? index,
    overscan: 6,
    rangeExtractor,
    initialRect: {
      width: 320,
      height: Math.min(maxHeight, items.length * CONVERSATION_ROW_HEIGHT),
    },
  });

  const focusRow = useCallback((index: number) => {
    const row = scrollRef.current?.querySelector<HTMLElement>(
      `[data-testid="conversation-row"][data-index="${index}"]`,
    );
    if (row) {
      row.focus();
      pendingFocus.current = null;
      return true;
    }
    return false;
  }, []);

  // after scrolling a row into the rendered range, focus it
  useEffect(() => {
    if (pendingFocus.current !== null) focusRow(pendingFocus.current);
  });

  // whatever takes the focus in a row (a click, the arrows, Tab) makes that row the current one
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const index = indexOfSlot(event.target);
    const item = index === null ? undefined : items[index];
    if (item) setCurrentId(item.id);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const current = indexOfSlot(event.target as HTMLElement);
    if (current === null) return;
    let next: number | null = null;
    if (event.key === 'ArrowDown') next = Math.min(items.length - 1, current + 1);
    else if (event.key === 'ArrowUp') next = Math.max(0, current - 1);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    if (next === null || next < 0) return;
    event.preventDefault();
    setCurrentId(items[next]?.id ?? null);
    virtualizer.scrollToIndex(next, { align: 'auto' });
    if (!focusRow(next)) pendingFocus.current = next;
  };

  const virtualItems = virtualizer.getVirtualItems();
  const lastRendered = virtualItems[virtualItems.length - 1]?.index ?? -1;
  useEffect(() => {
    if (hasMore && onLoadMore && lastRendered >= items.length - 1 - LOAD_MORE_WITHIN_ROWS)
      onLoadMore();
  }, [hasMore, onLoadMore, lastRendered, items.length]);
  return (
    <div
      ref={scrollRef}
      className="conversation-list"
      style={{ maxHeight }}
      data-testid={testId}
      role="list"
      aria-label={label}
      onFocus={onFocus}
      onKeyDown={onKeyDown}
      // the rows' avatars load once the list stands still (avatar.tsx)
      onScroll={holdDeferredImages}
    >
      <div className="conversation-list__inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualItems.map((virtualItem) => {
          const item = items[virtualItem.index];
          if (!item) return null;
          return (
            <div
              key={virtualItem.key}
              role="listitem"
              // -1: the size is not known yet (more rows are on the server)
              aria-setsize={hasMore ? -1 : items.length}
              aria-posinset={virtualItem.index + 1}
              className="conversation-list__slot"
              style={{ height: virtualItem.size, transform: `translateY(${virtualItem.start}px)` }}
            >
              <ConversationRow
                item={item}
                viewerRole={viewerRole}
                selected={item.id === selectedId}
                archived={archived}
                index={virtualItem.index}
                tabStop={virtualItem.index === currentIndex}
                now={now}
                onSelect={onSelect}
                onToggleArchive={onToggleArchive}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
};
