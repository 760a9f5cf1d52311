import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { LineIcon } from '../../../components/line-icon.js';

/** The attach button and the file input it opens (the chosen files go to `onFiles`). */
export const AttachFilesButton = ({
  disabled,
  onFiles,
}: {
  disabled: boolean;
  onFiles: (files: File[]) => void;
}) => {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className="icon-button chat-footer__attach"
        title={t('chat.files.attach')}
        disabled={disabled}
        onClick={() => fileInput.current?.click()}
      >
        <LineIcon path="M21 11.5l-8.6 8.6a5 5 0 01-7.1-7.1l8.6-8.6a3.3 3.3 0 014.7 4.7l-8.6 8.6a1.7 1.7 0 01-2.4-2.4l8-8" />
        <span className="visually-hidden">{t('chat.files.attach')}</span>
      </button>
      {/* Reached through the button (a real one, in the Tab order); never focused itself. */}
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        data-testid="attach-input"
        onChange={(event) => {
          onFiles(Array.from(event.target.files ?? []));
          event.target.value = ''; // the same file may be chosen again after removing it
        }}
      />
    </>
  );
};
