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

/** The selection a row click carries (spec §4). */
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

/** Case-insensitive "contains" on the other party's name. */
export const filterByPartyName = (
  items: readonly MessengerUser[],
  query: string,
  viewerRole: Role,
): MessengerUser[] => {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return [...items];
  return items.filter((item) =>
    otherPartyOf(item, viewerRole).name.toLocaleLowerCase().includes(needle),
  );
};

export const splitByArchive = (
  items: readonly MessengerUser[],
  viewerRole: Role,
): { active: MessengerUser[]; archived: MessengerUser[] } => {
  const active: MessengerUser[] = [];
  const archived: MessengerUser[] = [];
  for (const item of items) (isArchivedFor(item, viewerRole) ? archived : active).push(item);
  return { active, archived };
};
