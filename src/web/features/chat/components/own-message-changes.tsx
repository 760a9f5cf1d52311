import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { Chat } from '../../../../shared/models.js';
import { useDeleteMessage } from '../api/delete-message.js';
import type { ThreadKeyParts } from '../utils/thread-cache.js';
import { DeleteMessageDialog } from './delete-message-dialog.js';
import { MessageActions, MessageMenu, useLongPress } from './message-actions.js';
import { MessageEditForm } from './message-edit-form.js';

/** The chat area: where the focus goes when the control that had it went away. */
const focusMessageList = (from: HTMLElement | null) =>
  from?.closest<HTMLElement>('[data-testid="message-list"]')?.focus();

const DeleteMessage = ({
  chat,
  threadParts,
  onClose,
  onDeleted,
}: {
  chat: Chat;
  threadParts: ThreadKeyParts;
  onClose: () => void;
  onDeleted: () => void;
}) => {
  const { mutateAsync: deleteMessage } = useDeleteMessage(threadParts);
  return (
    <DeleteMessageDialog
      onConfirm={async () => {
        await deleteMessage(chat);
        onDeleted();
      }}
      onClose={onClose}
    />
  );
};

/**
 * What a message offers its sender while they may still change it: Edit and Delete beside it
 * (hover, keyboard focus), the same as a menu on a long press (touch), the text edited in place,
 * and the deletion's confirmation. Nothing for other messages; an edit under way stays open when
 * the window passes meanwhile (the server's refusal is said there), and closes when the message is
 * deleted (elsewhere).
 */
export const useOwnMessageChanges = (
  chat: Chat,
  changeable: boolean,
  threadParts: ThreadKeyParts | undefined,
): {
  extraClass: string;
  frameRef: RefObject<HTMLLIElement | null>;
  actions: ReactNode;
  bubbleHandlers: ReturnType<typeof useLongPress>;
  editor: ReactNode;
  overlays: ReactNode;
} => {
  const frameRef = useRef<HTMLLIElement>(null);
  const editRef = useRef<HTMLButtonElement>(null);
  const [editing, setEditing] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const deleted = Boolean(chat.deleted_at);
  const offered = changeable && !deleted && threadParts !== undefined;
  const bubbleHandlers = useLongPress(offered && !editing, () => setMenuOpen(true));

  // the focus goes back to Edit once the editor closes (or to the list when Edit is gone)
  const refocus = useRef(false);
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    if (editRef.current) editRef.current.focus();
    else focusMessageList(frameRef.current);
  }, [editing, offered]);

  const startEditing = useCallback(() => {
    setMenuOpen(false);
    setEditing(true);
  }, []);
  const stopEditing = useCallback(() => {
    refocus.current = true;
    setEditing(false);
  }, []);
  const askToDelete = useCallback(() => {
    setMenuOpen(false);
    setConfirming(true);
  }, []);
  const closeMenu = useCallback(() => setMenuOpen(false), []);

  return {
    extraClass: `${offered ? ' message--changeable' : ''}${editing && !deleted ? ' message--editing' : ''}`,
    frameRef,
    actions:
      offered && !editing ? (
        <MessageActions onEdit={startEditing} onDelete={askToDelete} editRef={editRef} />
      ) : null,
    bubbleHandlers,
    editor: editing && !deleted ? <MessageEditForm chat={chat} onDone={stopEditing} /> : null,
    overlays: (
      <>
        {menuOpen && offered ? (
          <MessageMenu onEdit={startEditing} onDelete={askToDelete} onClose={closeMenu} />
        ) : null}
        {confirming && threadParts && !deleted ? (
          <DeleteMessage
            chat={chat}
            threadParts={threadParts}
            onClose={() => setConfirming(false)}
            onDeleted={() => {
              setConfirming(false);
              focusMessageList(frameRef.current);
            }}
          />
        ) : null}
      </>
    ),
  };
};
