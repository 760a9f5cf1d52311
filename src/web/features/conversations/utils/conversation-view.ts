import type { MessengerUser, Role } from '../../../../shared/models.js';

const isCandidate = (role: Role): boolean => role === 'candidate';

/** What a row shows: the other party (company for a candidate viewer, candidate otherwise). */
export interface OtherParty {
  name: string;
  imageUrl: string | null;
  /**
   * The job the conversation is about, on every row ('' = no job: shown as 'No Title'): a recruiter
   * talking to two candidates about different jobs tells them apart by it.
   */
  jobTitle: string;
}

export const otherPartyOf = (item: MessengerUser, viewerRole: Role): OtherParty =>
  isCandidate(viewerRole)
    ? {
        name: item.company.user.name,
        imageUrl: item.company.logo,
        jobTitle: item.job?.title ?? '',
      }
    : {
        name: item.candidate.user.name,
        imageUrl: item.candidate.user.image_url,
        jobTitle: item.job?.title ?? '',
      };

/** Archived by the viewer's own side: `candidate_archive` for a candidate, `company_archive` otherwise. */
export const isArchivedFor = (item: MessengerUser, viewerRole: Role): boolean =>
  (isCandidate(viewerRole) ? item.candidate_archive : item.company_archive) === 1;

export const withArchiveFlag = (
  item: MessengerUser,
  viewerRole: Role,
  archived: boolean,
): MessengerUser =>
  isCandidate(viewerRole)
    ? { ...item, candidate_archive: archived ? 1 : 0 }
    : { ...item, company_archive: archived ? 1 : 0 };

/**
 * What opening a conversation needs: its job (null: none), the other party's user id (the
 * receiver of what the viewer sends; null when unknown) and the conversation id.
 */
export interface ConversationSelection {
  jobId: number | null;
  receiverId: number | null;
  selectedItem: number;
}

export const selectionFor = (item: MessengerUser, viewerRole: Role): ConversationSelection => ({
  jobId: item.job_id ?? null,
  receiverId: isCandidate(viewerRole) ? item.company_id : item.candidate_id,
  selectedItem: item.id,
});

/**
 * The search: case-insensitive "contains" on the other party's
 * name or the job title, as the server searches. Empty matches everything.
 */
export const matchesSearch = (item: MessengerUser, query: string, viewerRole: Role): boolean => {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return true;
  const party = otherPartyOf(item, viewerRole);
  return (
    party.name.toLocaleLowerCase().includes(needle) ||
    party.jobTitle.toLocaleLowerCase().includes(needle)
  );
};

export const filterBySearch = (
  items: readonly MessengerUser[],
  query: string,
  viewerRole: Role,
): MessengerUser[] =>
  query.trim() ? items.filter((item) => matchesSearch(item, query, viewerRole)) : [...items];
