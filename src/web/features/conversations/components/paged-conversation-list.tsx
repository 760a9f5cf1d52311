import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessengerUser } from '../../../../shared/models.js';
import { Spinner } from '../../../components/spinner.js';
import { LazyConversationList as ConversationList } from './lazy-conversation-list.js';

/** One side of the panel as loaded so far, and how to load the next page. */
export interface LoadedList {
  items: readonly MessengerUser[];
  /** Every row is loaded (the search and the count are exact). */
  complete: boolean;
  hasMore: boolean;
  isLoadingMore: boolean;
  loadMore: () => void;
}

/** A list, loading its next page as it scrolls, with a spinner while that page comes. */
export const PagedConversationList = ({
  list,
  ...props
}: Omit<ComponentProps<typeof ConversationList>, 'hasMore' | 'onLoadMore'> & {
  /** The side of the panel the rows (`items`, searched) come from. */
  list: LoadedList;
}) => {
  const { t } = useTranslation();
  return (
    <>
      <ConversationList {...props} hasMore={list.hasMore} onLoadMore={list.loadMore} />
      {list.isLoadingMore ? (
        <div className="conversation-panel__more">
          <Spinner size="sm" label={t('conversations.loadingMore')} />
        </div>
      ) : null}
    </>
  );
};
