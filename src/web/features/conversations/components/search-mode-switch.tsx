import { useTranslation } from 'react-i18next';

type SearchMode = 'conversations' | 'messages';

/**
 * The switch beside the search box between searching the conversations and the messages: a pair
 * of radio buttons, one Tab stop; the arrow keys switch, as radio buttons do.
 */
export const SearchModeSwitch = ({
  mode: current,
  onModeChange,
}: {
  mode: SearchMode;
  onModeChange: (mode: SearchMode) => void;
}) => {
  const { t } = useTranslation();
  return (
    <div
      className="search-mode"
      role="radiogroup"
      aria-label={t('messageSearch.modeLabel')}
      data-testid="search-mode"
    >
      {(['conversations', 'messages'] as const).map((mode) => (
        <button
          key={mode}
          type="button"
          role="radio"
          className="search-mode__option"
          aria-checked={current === mode}
          // one Tab stop for the pair; the arrow keys switch, as radio buttons do
          tabIndex={current === mode ? 0 : -1}
          onClick={() => onModeChange(mode)}
          onKeyDown={(event) => {
            if (!['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(event.key)) return;
            event.preventDefault();
            const other = mode === 'messages' ? 'conversations' : 'messages';
            onModeChange(other);
            const sibling =
              event.currentTarget.nextElementSibling ?? event.currentTarget.previousElementSibling;
            if (sibling instanceof HTMLElement) sibling.focus();
          }}
        >
          {mode === 'messages'
            ? t('messageSearch.modeMessages')
            : t('messageSearch.modeConversations')}
        </button>
      ))}
    </div>
  );
};
