import type { Kysely } from 'kysely';
import { hashPassword } from '../lib/crypto.js';
import { SETTING, settingOrInsert } from './app-settings.js';
import type { Db } from './database.js';
import {
  APPLICATION_GROUPS,
  APPLICATIONS,
  CONVERSATIONS,
  EXTRA_USERS,
  JOBS,
  TEMPLATES,
} from './demo-data.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-mode.js';
import { hasSearchIndex, indexMessage } from './search-index.js';
import { conversationJob, type Database } from './schema.js';

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

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
