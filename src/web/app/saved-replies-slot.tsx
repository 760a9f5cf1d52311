import { useCallback, useMemo } from 'react';
import type { AuthUser } from '../../shared/models.js';
import { firstName, type TemplateValues } from '../../shared/saved-replies-paths.js';
import type { OpenConversation } from '../features/chat/components/chat-pane.js';
import { SavedReplies } from '../features/templates/components/saved-replies.js';
import type { ComposerTools } from '../lib/composer-tool.js';

/**
 * The values of a saved reply's variables in the open conversation: the candidate and the company
 * are the viewer and the other party, by the viewer's side; the job is the conversation's (none:
 * empty); `me` is the viewer.
 */
export const templateValuesFor = (
  viewer: Pick<AuthUser, 'name' | 'role'>,
  conversation: Pick<OpenConversation, 'name' | 'job'>,
): TemplateValues => {
  const candidate = viewer.role === 'candidate' ? viewer.name : conversation.name;
  return {
    'candidate.first_name': firstName(candidate),
    'candidate.name': candidate,
    'company.name': viewer.role === 'candidate' ? conversation.name : viewer.name,
    'job.title': conversation.job?.title ?? null,
    'me.name': viewer.name,
  };
};

/** The composer's saved replies for the open conversation (undefined: none open). */
export const useSavedRepliesTools = (
  auth: AuthUser | undefined,
  conversation: OpenConversation | null,
): ComposerTools | undefined => {
  const values = useMemo(
    () => (auth && conversation ? templateValuesFor(auth, conversation) : null),
    [auth, conversation],
  );
  const tools = useCallback<ComposerTools>(
    (composer) => (values ? <SavedReplies composer={composer} values={values} /> : null),
    [values],
  );
  return values ? tools : undefined;
};
