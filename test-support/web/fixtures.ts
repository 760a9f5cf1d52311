import type { AuthUser, Chat, Job, MessengerUser } from '../../src/shared/models.js';
import type { Template } from '../../src/shared/saved-replies.js';

export const jobs = {
  robotics: { id: 100, title: 'Robotics Engineer', status: 'active', deadline: '2026-12-31' },
  backend: { id: 101, title: 'Backend Developer', status: 'closed', deadline: '2026-10-01' },
  designer: { id: 102, title: 'Product Designer', status: 'active', deadline: null },
} satisfies Record<string, Job>;

export const users = {
  sara: { id: 1, role: 'candidate', name: 'Sara Haddad', suspended: false },
  omar: { id: 2, role: 'candidate', name: 'Omar Khalil', suspended: false },
  lina: { id: 3, role: 'candidate', name: 'Lina Farouk', suspended: false },
  acme: { id: 10, role: 'company', name: 'Acme Robotics', suspended: false },
  nile: { id: 11, role: 'company', name: 'Nile Software', suspended: false },
  harbor: { id: 12, role: 'owner', name: 'Blue Harbor Logistics', suspended: false },
  desert: { id: 13, role: 'company', name: 'Desert Bloom Studios', suspended: false },
} satisfies Record<string, AuthUser>;

const images: Record<number, string | null> = {
  1: '/images/candidates/sara.svg',
  2: null,
  3: null,
  10: '/images/companies/acme.svg',
  11: null,
  12: null,
  13: null,
};

interface ConversationInput {
  id: number;
  candidate: AuthUser;
  company: AuthUser;
  job: Job | null;
  unread?: number;
  candidateArchive?: 0 | 1;
  companyArchive?: 0 | 1;
  lastMessage?: string | null;
  lastMessageAt?: string | null;
  otherOnline?: boolean;
  otherLastSeenAt?: string | null;
  /** The viewer blocked the other party. */
  blocked?: boolean;
}

export const makeConversation = ({
  id,
  candidate,
  company,
  job,
  unread = 0,
  candidateArchive = 0,
  companyArchive = 0,
  lastMessage = 'Hello there',
  // about five minutes ago, a second older per id: the fixtures' order (by id) is newest first,
  // as the server orders the list
  lastMessageAt = new Date(Date.now() - 5 * 60_000 - id * 1000).toISOString(),
  otherOnline = false,
  otherLastSeenAt = null,
  blocked = false,
}: ConversationInput): MessengerUser => ({
  id,
  job_id: job?.id ?? null,
  job,
  candidate_id: candidate.id,
  company_id: company.id,
  candidate: {
    id: candidate.id + 1000,
    user: { name: candidate.name, image_url: images[candidate.id] ?? null },
  },
  company: {
    id: company.id + 2000,
    logo: images[company.id] ?? null,
    user: { name: company.name },
  },
  last_message: lastMessage,
  last_message_time: '5 minutes ago',
  last_message_at: lastMessageAt,
  is_seen_messages_count: unread,
  company_archive: companyArchive,
  candidate_archive: candidateArchive,
  other_online: otherOnline,
  other_last_seen_at: otherLastSeenAt,
  blocked,
});

let nextChatId = 5000;
export const makeChat = (
  conversation: MessengerUser,
  from: AuthUser,
  message: string,
  options: { id?: number; createdAt?: string; clientId?: string | null } = {},
): Chat => {
  const createdAt = options.createdAt ?? new Date().toISOString();
  const to =
    from.id === conversation.candidate_id ? conversation.company_id : conversation.candidate_id;
  return {
    id: options.id ?? nextChatId++,
    sender_id: from.id,
    receiver_id: to,
    job_id: conversation.job_id,
    messenger_user_id: conversation.id,
    message,
    messaging_date: createdAt.slice(0, 10),
    messaging_time: '9:30 AM',
    created_at: createdAt,
    seen_at: null,
    client_id: options.clientId ?? null,
    sender: { id: from.id, name: from.name },
    attachments: [],
    edited_at: null,
    deleted_at: null,
  };
};

const isoDaysAgo = (days: number, hour: number, minute = 0) => {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() - days);
  date.setUTCHours(hour, minute, 0, 0);
  return date.toISOString();
};

/** Sara (candidate): Acme (2 unread, two dates), Nile (inactive job), Blue Harbor (no job), Desert Bloom (archived). */
export interface Scenario {
  auth: AuthUser;
  jobs: Job[];
  conversations: MessengerUser[];
  chats: Map<number, Chat[]>;
  /** The viewer's saved replies on the server (none unless told). */
  templates?: Template[];
}

export const candidateScenario = (): Scenario => {
  const acme = makeConversation({
    id: 1,
    candidate: users.sara,
    company: users.acme,
    job: jobs.robotics,
    unread: 2,
  });
  const nile = makeConversation({
    id: 2,
    candidate: users.sara,
    company: users.nile,
    job: jobs.backend,
  });
  const harbor = makeConversation({
    id: 3,
    candidate: users.sara,
    company: users.harbor,
    job: null,
  });
  const desert = makeConversation({
    id: 4,
    candidate: users.sara,
    company: users.desert,
    job: jobs.designer,
    candidateArchive: 1,
  });
  const chats = new Map<number, Chat[]>([
    [
      1,
      [
        makeChat(acme, users.acme, 'Thanks for applying!', {
          id: 101,
          createdAt: isoDaysAgo(2, 9),
        }),
        makeChat(acme, users.sara, 'Happy to be here.', { id: 102, createdAt: isoDaysAgo(2, 10) }),
        makeChat(acme, users.acme, 'Can you do an interview on Monday?', {
          id: 103,
          createdAt: isoDaysAgo(0, 8),
        }),
      ],
    ],
    [
      2,
      [
        makeChat(nile, users.nile, 'The role is closed, sorry.', {
          id: 201,
          createdAt: isoDaysAgo(5, 12),
        }),
      ],
    ],
    [3, []],
    [
      4,
      [makeChat(desert, users.desert, 'Archived hello', { id: 401, createdAt: isoDaysAgo(9, 12) })],
    ],
  ]);
  return {
    auth: users.sara,
    jobs: [jobs.robotics, jobs.backend, jobs.designer],
    conversations: [acme, nile, harbor, desert],
    chats,
  };
};

/** Acme (company): Sara and Omar about the same job, Lina archived. */
export const companyScenario = (): Scenario => {
  const sara = makeConversation({
    id: 1,
    candidate: users.sara,
    company: users.acme,
    job: jobs.robotics,
  });
  const omar = makeConversation({
    id: 5,
    candidate: users.omar,
    company: users.acme,
    job: jobs.robotics,
    unread: 1,
  });
  const lina = makeConversation({
    id: 6,
    candidate: users.lina,
    company: users.acme,
    job: jobs.designer,
    companyArchive: 1,
  });
  const chats = new Map<number, Chat[]>([
    [1, [makeChat(sara, users.sara, 'Hello Acme', { id: 111, createdAt: isoDaysAgo(1, 9) })]],
    [5, [makeChat(omar, users.omar, 'Hi from Omar', { id: 511, createdAt: isoDaysAgo(0, 7) })]],
    [6, []],
  ]);
  return {
    auth: users.acme,
    jobs: [jobs.robotics, jobs.designer],
    conversations: [sara, omar, lina],
    chats,
  };
};
