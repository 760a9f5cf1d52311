import { useTranslation } from 'react-i18next';

/** How many conversations the applied filter found ("or more" while the lists are not loaded whole). */
export const FilterResult = ({ count, exact }: { count: number; exact: boolean }) => {
  const { t } = useTranslation();
  return (
    <p className="conversation-panel__result" role="status" data-testid="filter-result">
      {exact
        ? t('conversations.filterResult', { count })
        : t('conversations.filterResultMore', { count })}
    </p>
  );
};
