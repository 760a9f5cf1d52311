import { useState } from 'react';
import { createPortal } from 'react-dom';
import type { TemplateValues } from '../../../../shared/saved-replies-paths.js';
import type { Composer } from '../../../lib/composer-tool.js';
import { ManageSavedRepliesDialog } from './manage-saved-replies-dialog.js';
import { SavedRepliesPicker } from './saved-replies-picker.js';

/**
 * Saved replies in the composer: the picker, and the screen to manage them opened from it (the
 * message box has the focus again when that screen closes).
 */
export const SavedReplies = ({
  composer,
  values,
}: {
  composer: Composer;
  values: TemplateValues;
}) => {
  const [managing, setManaging] = useState(false);
  return (
    <>
      <SavedRepliesPicker composer={composer} values={values} onManage={() => setManaging(true)} />
      {/* over the page, outside the composer's form (its own form must not submit that one) */}
      {managing
        ? createPortal(
            <ManageSavedRepliesDialog
              onClose={() => {
                setManaging(false);
                requestAnimationFrame(() => composer.focus());
              }}
            />,
            document.body,
          )
        : null}
    </>
  );
};
