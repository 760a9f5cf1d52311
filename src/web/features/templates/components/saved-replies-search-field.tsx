import type { KeyboardEvent, Ref } from 'react';
import { useTranslation } from 'react-i18next';

/** The picker's own search field (opened by the button): a combobox over the list of replies. */
export const SavedRepliesSearchField = ({
  ref,
  listboxId,
  activeId,
  value,
  onChange,
  onKeyDown,
}: {
  ref: Ref<HTMLInputElement>;
  listboxId: string;
  /** The highlighted option's id, if any. */
  activeId: string | undefined;
  value: string;
  onChange: (value: string) => void;
  onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
}) => {
  const { t } = useTranslation();
  return (
    <input
      ref={ref}
      className="input saved-replies__search"
      type="search"
      role="combobox"
      aria-label={t('templates.search')}
      placeholder={t('templates.searchPlaceholder')}
      aria-expanded="true"
      aria-controls={listboxId}
      aria-autocomplete="list"
      aria-activedescendant={activeId}
      autoComplete="off"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onKeyDown={onKeyDown}
    />
  );
};
