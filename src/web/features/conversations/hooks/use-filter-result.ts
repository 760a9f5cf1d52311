import { useState, type FormEvent } from 'react';

/**
 * Filter (or Enter in the search box) applies the typed search and the chosen job together: the
 * list is reloaded for that job and the result is counted; the count goes once either changes.
 */
export const useFilterResult = ({
  search,
  jobFilter,
  onFilter,
  searchingMessages,
}: {
  search: string;
  jobFilter: string;
  /** Reloads the list for the chosen job (resolves when reloaded). */
  onFilter: () => Promise<unknown>;
  /** The box searches the messages: nothing to filter on submit. */
  searchingMessages: boolean;
}) => {
  const [submitted, setSubmitted] = useState<{ search: string; jobFilter: string } | null>(null);
  const [filtering, setFiltering] = useState(false);
  const showResult =
    submitted !== null &&
    !filtering &&
    submitted.search === search &&
    submitted.jobFilter === jobFilter;
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (searchingMessages) return; // the messages are searched as the text is typed
    const applied = { search, jobFilter };
    setFiltering(true);
    try {
      await onFilter();
    } finally {
      setFiltering(false);
      setSubmitted(applied);
    }
  };
  return { filtering, showResult, onSubmit };
};
