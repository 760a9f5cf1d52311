import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Template } from '../../../../shared/saved-replies.js';
import { fillTemplate, type TemplateValues } from '../../../../shared/saved-replies-paths.js';
import { LiveRegion } from '../../../components/live-region.js';
import { RetryButton } from '../../../components/retry-button.js';
import type { Composer } from '../../../lib/composer-tool.js';
import { useOutsideDismiss } from '../../../lib/use-outside-dismiss.js';
import { useTemplates } from '../api/get-templates.js';
import { useDriveFromMessageBox } from '../hooks/use-drive-from-message-box.js';
import { useSlashOpening, type PickerMode } from '../hooks/use-slash-opening.js';
import { pickerKeyHandler } from '../utils/picker-keys.js';
import { SavedRepliesButton } from './saved-replies-button.js';
import { SavedRepliesSearchField } from './saved-replies-search-field.js';
import { SavedReplyOptions } from './saved-reply-options.js';

/** The replies whose name or body holds the query (ignoring case); all of them for none. */
export const filterTemplates = (templates: readonly Template[], query: string): Template[] => {
  const wanted = query.trim().toLocaleLowerCase();
  if (wanted === '') return [...templates];
  return templates.filter(
    (item) =>
      item.name.toLocaleLowerCase().includes(wanted) ||
      item.body.toLocaleLowerCase().includes(wanted),
  );
};

/** A filled reply at the end of what the box holds (a space between when needed). */
const appended = (current: string, filled: string): string =>
  current === '' || /\s$/u.test(current) ? `${current}${filled}` : `${current} ${filled}`;

/** What the list says (politely): loading, failed, none yet, no match, or how many match. */
const statusText = (
  t: TFunction,
  templates: ReturnType<typeof useTemplates>,
  matchCount: number,
): string =>
  templates.isPending
    ? t('templates.loading')
    : templates.isError
      ? t('templates.loadFailed')
      : (templates.data?.length ?? 0) === 0
        ? t('templates.noneYet')
        : matchCount === 0
          ? t('templates.noMatches')
          : t('templates.matches', { count: matchCount });

export interface SavedRepliesPickerProps {
  composer: Composer;
  /** The open conversation's values of the variables. */
  values: TemplateValues;
  /** Opens the screen to add, edit and delete saved replies. */
  onManage: () => void;
}

/**
 * The composer's saved replies: a button that opens a searchable list (its own search field, a
 * combobox), and `/` typed first in an empty message box, which opens the same list filtered by
 * what follows the `/` (the box keeps the focus and drives the list). Arrow keys move, Enter
 * inserts the highlighted reply with its variables filled (never sends it), Escape closes and the
 * message box has the focus. The number of matches is said politely.
 */
export const SavedRepliesPicker = ({ composer, values, onManage }: SavedRepliesPickerProps) => {
  const { t } = useTranslation();
  const [mode, setMode] = useState<PickerMode | null>(null);
  const [search, setSearch] = useState('');
  const [active, setActive] = useState(0);
  const rootRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const listboxId = useId();
  const popupId = useId();
  const optionId = useId();
  const templates = useTemplates(mode !== null);

  const { text, drive } = composer;
  const query = mode === 'slash' ? text.slice(1) : search;
  const matches = filterTemplates(templates.data ?? [], query);
  const activeIndex = Math.min(active, Math.max(0, matches.length - 1));
  const activeTemplate = matches[activeIndex];

  useSlashOpening(text, mode, setMode, setActive);

  const close = useCallback(() => setMode(null), []);
  useOutsideDismiss(mode === 'search', rootRef, close);

  const closeToComposer = () => {
    setMode(null);
    composer.focus();
  };

  const insert = (template: Template) => {
    const filled = fillTemplate(template.body, values);
    setMode(null);
    composer.replaceText(mode === 'slash' ? filled : appended(text, filled));
  };

  /** The list's keys, from its search field or from the message box; true: handled. */
  const onListKey = pickerKeyHandler({
    mode,
    matches,
    activeIndex,
    setActive,
    insert,
    closeToComposer,
    close,
  });

  // the message box drives the list while it is open by `/`
  const activeId = activeTemplate ? `${optionId}-${activeTemplate.id}` : undefined;
  useDriveFromMessageBox({ driving: mode === 'slash', drive, popupId, activeId, onListKey });

  useEffect(() => {
    if (mode === 'search') searchRef.current?.focus();
  }, [mode]);

  const openFromButton = () => {
    if (mode === 'search') {
      closeToComposer();
      return;
    }
    setSearch('');
    setActive(0);
    setMode('search');
  };

  const manage = () => {
    setMode(null);
    onManage();
  };

  const status = statusText(t, templates, matches.length);

  return (
    <div className="saved-replies" ref={rootRef}>
      <SavedRepliesButton
        popupId={popupId}
        open={mode !== null}
        disabled={composer.disabled}
        onClick={openFromButton}
      />
      {mode !== null ? (
        <div className="saved-replies__popup" id={popupId} data-testid="saved-replies-picker">
          <p className="saved-replies__title">{t('templates.title')}</p>
          {mode === 'search' ? (
            <SavedRepliesSearchField
              ref={searchRef}
              listboxId={listboxId}
              activeId={activeId}
              value={search}
              onChange={(value) => {
                setSearch(value);
                setActive(0);
              }}
              onKeyDown={(event) => void onListKey(event)}
            />
          ) : (
            <p className="saved-replies__hint">{t('templates.slashHint')}</p>
          )}
          {matches.length > 0 ? (
            <SavedReplyOptions
              listboxId={listboxId}
              optionId={optionId}
              matches={matches}
              activeIndex={activeIndex}
              onActiveChange={setActive}
              onInsert={insert}
            />
          ) : (
            <p className="saved-replies__empty">
              {templates.isSuccess && templates.data.length === 0
                ? t('templates.emptyHelp')
                : status}
            </p>
          )}
          {templates.isError ? (
            <RetryButton label={t('templates.retry')} onRetry={templates.refetch} variant="link" />
          ) : null}
          <button
            type="button"
            className="button button--secondary saved-replies__manage"
            onMouseDown={(event) => {
              if (mode === 'slash') event.preventDefault();
            }}
            onClick={manage}
          >
            {t('templates.manage')}
          </button>
          <LiveRegion message={status} testId="saved-replies-status" />
        </div>
      ) : null}
    </div>
  );
};
