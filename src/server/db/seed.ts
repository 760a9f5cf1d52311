import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import { hashPassword } from '../lib/crypto.js';
import { readSetting, SETTING, settingOrInsert } from './app-settings.js';
import type { Db } from './database.js';
import { hasSearchIndex, indexMessage } from './search-index.js';
import { conversationJob, type Database } from './schema.js';

export const DEMO_PASSWORD = 'password';

type Role = 'candidate' | 'company' | 'owner';
interface SeedUser {
  key: string;
  email: string;
  role: Role;
  name: string;
}

/** The accounts the contract lists first, then extras so that search and the job filter have work to do. */
export const DEMO_ACCOUNTS: SeedUser[] = [
  { key: 'sara', email: 'candidate@example.com', role: 'candidate', name: 'Sara Haddad' },
  { key: 'omar', email: 'candidate2@example.com', role: 'candidate', name: 'Omar Khalil' },
  { key: 'acme', email: 'company@example.com', role: 'company', name: 'Acme Robotics' },
  { key: 'nile', email: 'company2@example.com', role: 'company', name: 'Nile Software' },
  { key: 'harbor', email: 'owner@example.com', role: 'owner', name: 'Blue Harbor Logistics' },
];

export const EXTRA_USERS: SeedUser[] = [
  { key: 'cedar', email: 'cedar@example.com', role: 'company', name: 'Cedar Health' },
  { key: 'orbit', email: 'orbit@example.com', role: 'company', name: 'Orbit Finance' },
  { key: 'lina', email: 'lina@example.com', role: 'candidate', name: 'Lina Farouk' },
  { key: 'youssef', email: 'youssef@example.com', role: 'candidate', name: 'Youssef Nasser' },
  { key: 'maya', email: 'maya@example.com', role: 'candidate', name: 'Maya Chen' },
  { key: 'daniel', email: 'daniel@example.com', role: 'candidate', name: 'Daniel Okafor' },
];

const JOBS = [
  {
    key: 'robotics',
    company: 'acme',
    title: 'Senior Robotics Engineer',
    status: 'active',
    days: 30,
  },
  {
    key: 'embedded',
    company: 'acme',
    title: 'Embedded Software Developer',
    status: 'active',
    days: 45,
  },
  { key: 'qa', company: 'acme', title: 'QA Technician', status: 'closed', days: -5 },
  { key: 'frontend', company: 'nile', title: 'Frontend Developer', status: 'inactive', days: -10 },
  {
    key: 'backend',
    company: 'nile',
    title: 'Backend Engineer (Node.js)',
    status: 'active',
    days: 20,
  },
  {
    key: 'coordinator',
    company: 'harbor',
    title: 'Logistics Coordinator',
    status: 'active',
    days: 25,
  },
  { key: 'nurse', company: 'cedar', title: 'Clinical Data Analyst', status: 'active', days: 15 },
  { key: 'analyst', company: 'orbit', title: 'Risk Analyst', status: 'active', days: 40 },
] as const;

/** [candidate, company, job|null, archivedBy, messages: [from, minutesAgo, text, seen]] */
type SeedMessage = [from: 'candidate' | 'company', minutesAgo: number, text: string, seen: boolean];
const CONVERSATIONS: {
  candidate: string;
  company: string;
  job: string | null;
  archivedBy?: 'candidate' | 'company';
  messages: SeedMessage[];
}[] = [
  {
    candidate: 'sara',
    company: 'acme',
    job: 'robotics',
    messages: [
      [
        'company',
        26 * 60,
        'Hello Sara, thank you for applying to the Senior Robotics Engineer role.',
        true,
      ],
      ['candidate', 26 * 60 - 12, 'Thank you! I am very interested in the position.', true],
      [
        'company',
        25 * 60,
        'Could you share a short summary of your work on motion planning?',
        true,
      ],
      [
        'candidate',
        24 * 60 + 30,
        'Sure — I led the path-planning module for a warehouse robot fleet.',
        true,
      ],
      ['company', 90, 'Great. We would like to invite you to a technical interview.', false],
      ['company', 88, 'Would Tuesday at 10:00 work for you?', false],
    ],
  },
  {
    candidate: 'sara',
    company: 'nile',
    job: 'frontend',
    messages: [
      ['candidate', 3 * 24 * 60, 'Hi, is the Frontend Developer position still open?', true],
      [
        'company',
        3 * 24 * 60 - 30,
        'Unfortunately it has just been closed. We will keep your profile.',
        true,
      ],
    ],
  },
  {
    candidate: 'sara',
    company: 'harbor',
    job: null,
    messages: [
      ['company', 2 * 24 * 60, 'Hello Sara, we saw your profile and would love to talk.', true],
      ['candidate', 2 * 24 * 60 - 45, 'Hello! Happy to chat — what do you have in mind?', true],
    ],
  },
  {
    candidate: 'sara',
    company: 'cedar',
    job: 'nurse',
    archivedBy: 'candidate',
    messages: [
      ['company', 6 * 24 * 60, 'Thanks for your interest in the Clinical Data Analyst role.', true],
    ],
  },
  {
    candidate: 'omar',
    company: 'acme',
    job: 'robotics',
    messages: [
      ['candidate', 5 * 60, 'Good morning, I applied for the Senior Robotics Engineer role.', true],
      ['company', 4 * 60, 'Good morning Omar, we are reviewing applications this week.', true],
      ['candidate', 30, 'Thank you, looking forward to hearing from you.', false],
    ],
  },
  {
    candidate: 'lina',
    company: 'acme',
    job: 'embedded',
    archivedBy: 'company',
    messages: [
      ['candidate', 4 * 24 * 60, 'Hello, I would like to know more about the embedded role.', true],
    ],
  },
  {
    candidate: 'youssef',
    company: 'acme',
    job: 'qa',
    messages: [
      ['candidate', 7 * 24 * 60, 'Is there any update on the QA Technician position?', true],
    ],
  },
  {
    candidate: 'maya',
    company: 'acme',
    job: 'embedded',
    messages: [['company', 3 * 60, 'Hi Maya, are you available for a call this week?', true]],
  },
  {
    candidate: 'omar',
    company: 'harbor',
    job: 'coordinator',
    messages: [
      ['candidate', 10 * 60, 'Hello, I am interested in the Logistics Coordinator job.', true],
    ],
  },
  {
    candidate: 'daniel',
    company: 'orbit',
    job: 'analyst',
    messages: [
      ['company', 8 * 60, 'Hi Daniel, thanks for applying to the Risk Analyst role.', true],
    ],
  },
];

const APPLICATION_GROUPS = [
  { key: 'interview', company: 'acme', name: 'Interview' },
  { key: 'shortlist', company: 'acme', name: 'Shortlisted' },
  { key: 'new', company: 'acme', name: 'New applicants' },
] as const;

const APPLICATIONS = [
  { candidate: 'sara', job: 'robotics', group: 'interview' },
  { candidate: 'omar', job: 'robotics', group: 'shortlist' },
  { candidate: 'lina', job: 'embedded', group: 'new' },
  { candidate: 'maya', job: 'embedded', group: 'new' },
  { candidate: 'sara', job: 'frontend', group: null },
] as const;

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * Demo mode: this database holds the demo data (it was seeded), and the configuration allows it.
 * `auto` never counts under NODE_ENV=production; `off` never does.
 */
export const isDemoMode = async (config: Config, db: Db): Promise<boolean> => {
  if (config.demoSeed === 'off') return false;
  if (config.demoSeed === 'auto' && config.production) return false;
  return (await readSetting(db.kysely, SETTING.demo)) !== undefined;
};

export type DemoDecision = { seed: false; reason: string } | { seed: true; warning?: string };

/**
 * Whether to seed the demo now. `auto` seeds only an empty database (no user at all) and never under
 * NODE_ENV=production; a database seeded before (the demo marker) is topped up idempotently. `on`
 * always seeds, and says loudly when that happens in production.
 */
export const decideDemoSeed = async (config: Config, db: Db): Promise<DemoDecision> => {
  if (config.demoSeed === 'off') return { seed: false, reason: 'DEMO_SEED=off' };
  if (config.demoSeed === 'on') {
    return config.production
      ? {
          seed: true,
          warning:
            'DEMO_SEED=on under NODE_ENV=production: demo accounts with the password "password" are in this database and listed on the sign-in page. Never do this with real users.',
        }
      : { seed: true };
  }
  if (config.production) return { seed: false, reason: 'NODE_ENV=production' };
  if ((await readSetting(db.kysely, SETTING.demo)) !== undefined) return { seed: true };
  const anyUser = await db.kysely.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return anyUser ? { seed: false, reason: 'the database already holds users' } : { seed: true };
};

export const listDemoAccounts = async (db: Db) => {
  const rows = await db.kysely
    .selectFrom('users')
    .select(['email', 'name', 'role'])
    .where(
      'email',
      'in',
      DEMO_ACCOUNTS.map((account) => account.email),
    )
    .where('erased_at', 'is', null)
    .execute();
  const order = DEMO_ACCOUNTS.map((account) => account.email);
  return rows
    .flatMap((row) => (row.email === null ? [] : [{ ...row, email: row.email }]))
    .sort((a, b) => order.indexOf(a.email) - order.indexOf(b.email));
};

/** Saved replies of the demo accounts (their variables are filled when a reply is inserted). */
const TEMPLATES: { user: string; name: string; body: string }[] = [
  {
    user: 'acme',
    name: 'Interview invitation',
    body: 'Hi {{candidate.first_name}}, thank you for applying for {{job.title}}. We would like to invite you to an interview. Which times suit you next week?\n\nBest regards,\n{{me.name}}',
  },
  {
    user: 'acme',
    name: 'Application received',
    body: 'Hi {{candidate.first_name}}, we have received your application for {{job.title}} and will get back to you within a week.\n\n{{me.name}}',
  },
  {
    user: 'acme',
    name: 'Position filled',
    body: 'Dear {{candidate.name}}, thank you for your interest in {{job.title}}. The position has now been filled, but we will keep your profile for future openings.\n\n{{company.name}}',
  },
  {
    user: 'sara',
    name: 'Availability',
    body: 'Thank you for getting back to me. I am available for an interview any weekday after 2 pm and can start within a month.\n\n{{me.name}}',
  },
];

/** Seeds the demo data once; a second run finds the first demo account and changes nothing. */
export const seedDemo = async (db: Db, now = Date.now()): Promise<boolean> => {
  const existing = await db.kysely
    .selectFrom('users')
    .select('id')
    .where('email', '=', DEMO_ACCOUNTS[0]?.email ?? '')
    .executeTakeFirst();
  if (existing) {
    await settingOrInsert(db.kysely, SETTING.demo, 'seeded');
    return false;
  }
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
  const dateIn = (days: number) => new Date(now + days * 24 * 3600_000).toISOString().slice(0, 10);

  await db.kysely.transaction().execute(async (trx: Kysely<Database>) => {
    await settingOrInsert(trx, SETTING.demo, 'seeded');
    const users = new Map<string, number>();
    for (const user of [...DEMO_ACCOUNTS, ...EXTRA_USERS]) {
      const image = `/images/${user.role === 'candidate' ? 'photos' : 'logos'}/${slug(user.name)}.svg`;
      const row = await trx
        .insertInto('users')
        .values({
          role: user.role,
          name: user.name,
          email: user.email,
          password_hash: passwordHash,
          image_url: user.role === 'candidate' ? image : null,
          logo: user.role === 'candidate' ? null : image,
          created_at: at(60 * 24 * 30),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      users.set(user.key, row.id);
    }
    const id = (map: Map<string, number>, key: string) => {
      const value = map.get(key);
      if (value === undefined) throw new Error(`seed: unknown key ${key}`);
      return value;
    };

    const jobs = new Map<string, number>();
    for (const job of JOBS) {
      const row = await trx
        .insertInto('jobs')
        .values({
          company_id: id(users, job.company),
          title: job.title,
          status: job.status,
          deadline: dateIn(job.days),
          created_at: at(60 * 24 * 20),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      jobs.set(job.key, row.id);
    }

    const groups = new Map<string, number>();
    for (const group of APPLICATION_GROUPS) {
      const row = await trx
        .insertInto('application_groups')
        .values({ company_id: id(users, group.company), name: group.name })
        .returning('id')
        .executeTakeFirstOrThrow();
      groups.set(group.key, row.id);
    }
    for (const application of APPLICATIONS) {
      await trx
        .insertInto('applications')
        .values({
          job_id: id(jobs, application.job),
          candidate_id: id(users, application.candidate),
          application_group_id: application.group ? id(groups, application.group) : null,
          created_at: at(60 * 24 * 10),
        })
        .execute();
    }

    const indexed = await hasSearchIndex(trx, db.dialect);
    for (const conversation of CONVERSATIONS) {
      const candidateId = id(users, conversation.candidate);
      const companyId = id(users, conversation.company);
      const jobId = conversation.job ? id(jobs, conversation.job) : null;
      const last = conversation.messages.at(-1);
      const unread = (from: 'candidate' | 'company') =>
        conversation.messages.filter(([sender, , , seen]) => sender === from && !seen).length;
      const { id: conversationId } = await trx
        .insertInto('messenger_users')
        .values({
          candidate_id: candidateId,
          company_id: companyId,
          ...conversationJob(jobId),
          last_message: last ? last[2].slice(0, 100) : null,
          last_message_at: last ? at(last[1]) : null,
          activity_at: last ? at(last[1]) : at(60 * 24 * 30),
          candidate_unread: unread('company'),
          company_unread: unread('candidate'),
          candidate_archive: conversation.archivedBy === 'candidate' ? 1 : 0,
          company_archive: conversation.archivedBy === 'company' ? 1 : 0,
          created_at: at(60 * 24 * 30),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const [from, minutesAgo, text, seen] of conversation.messages) {
        const { id: chatId } = await trx
          .insertInto('chats')
          .values({
            messenger_user_id: conversationId,
            sender_id: from === 'candidate' ? candidateId : companyId,
            receiver_id: from === 'candidate' ? companyId : candidateId,
            job_id: jobId,
            message: text,
            client_id: null,
            created_at: at(minutesAgo),
            seen_at: seen ? at(Math.max(0, minutesAgo - 1)) : null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (indexed) await indexMessage(trx, db.dialect, chatId, text);
      }
    }
    // (saved replies came with the search index, migrations 015 and 016: the upgrade tests seed older schemas)
    if (indexed)
      for (const template of TEMPLATES)
        await trx
          .insertInto('message_templates')
          .values({
            user_id: id(users, template.user),
            name: template.name,
            body: template.body,
            created_at: at(60 * 24 * 7),
            updated_at: at(60 * 24 * 7),
          })
          .execute();
  });
  return true;
};
