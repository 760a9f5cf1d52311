import { useTranslation } from 'react-i18next';
import type { Template } from '../../../../shared/saved-replies.js';

/** How much of a body an option shows (the rest is cut, with an ellipsis). */
const PREVIEW_LENGTH = 90;

const preview = (body: string): string => {
  const flat = body.replace(/\s+/gu, ' ').trim();
  return flat.length > PREVIEW_LENGTH ? `${flat.slice(0, PREVIEW_LENGTH).trimEnd()}…` : flat;
};

/**
 * The matching replies as a listbox: each option its name and the start of its body; the pointer
 * highlights, a click inserts. The focus stays where it is (the search field or the message box).
 */
export const SavedReplyOptions = ({
  listboxId,
  optionId,
  matches,
  activeIndex,
  onActiveChange,
  onInsert,
}: {
  listboxId: string;
  /** The prefix of the options' ids (`<optionId>-<template id>`). */
  optionId: string;
  matches: readonly Template[];
  activeIndex: number;
  onActiveChange: (index: number) => void;
  onInsert: (template: Template) => void;
}) => {
  const { t } = useTranslation();
  return (
    <ul
      className="saved-replies__list"
      id={listboxId}
      role="listbox"
      aria-label={t('templates.title')}
    >
      {matches.map((item, index) => (
        <li
          key={item.id}
          id={`${optionId}-${item.id}`}
          className={`saved-replies__option${index === activeIndex ? ' is-active' : ''}`}
          role="option"
          aria-selected={index === activeIndex}
          // the focus stays in the search field or the message box
          onMouseDown={(event) => event.preventDefault()}
          onMouseMove={() => {
            if (index !== activeIndex) onActiveChange(index);
          }}
          onClick={() => onInsert(item)}
        >
          <span className="saved-replies__name" dir="auto">
            {item.name}
          </span>
          <span className="saved-replies__preview" dir="auto">
            {preview(item.body)}
          </span>
        </li>
      ))}
    </ul>
  );
};
