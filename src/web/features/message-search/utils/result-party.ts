import type { MessengerUser, Role } from '../../../../shared/models.js';

/** Whom a result is with, as the list shows them: the company for a candidate, else the candidate. */
export const resultParty = (
  item: MessengerUser,
  viewerRole: Role,
): { name: string; imageUrl: string | null; jobTitle: string | null } =>
  viewerRole === 'candidate'
    ? {
        name: item.company.user.name,
        imageUrl: item.company.logo,
        jobTitle: item.job?.title || null,
      }
    : {
        name: item.candidate.user.name,
        imageUrl: item.candidate.user.image_url,
        jobTitle: item.job?.title || null,
      };
