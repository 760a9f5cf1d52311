import type { Db, Executor } from '../../db/database.js';
import { conversationJob, type Database, type UsersTable } from '../../db/schema.js';

type UserValues = Omit<UsersTable, 'id' | 'last_seen_at'>;

const USER_COLUMNS = [
  'id',
  'external_id',
  'role',
  'name',
  'email',
  'password_hash',
  'image_url',
  'logo',
  'locale',
  'erased_at',
  'suspended_at',
] as const;

const JOB_COLUMNS = ['id', 'external_id', 'title', 'status', 'deadline', 'company_id'] as const;

/** All SQL of the integration API (host users, jobs, applications, conversations, erasure). */
export const createIntegrationRepository = (_db: Db) => ({
  findUserByExternalId: (executor: Executor, externalId: string) =>
    executor
      .selectFrom('users')
      .select(USER_COLUMNS)
      .where('external_id', '=', externalId)
      .executeTakeFirst(),

  /** The host's ids of these users (a user the host did not make has none). */
  externalIdsOfUsers: (executor: Executor, ids: readonly number[]) =>
    executor.selectFrom('users').select(['id', 'external_id']).where('id', 'in', ids).execute(),

  findJobExternalId: async (executor: Executor, id: number) =>
    (
      await executor
        .selectFrom('jobs')
        .select('external_id')
        .where('id', '=', id)
        .executeTakeFirst()
    )?.external_id ?? null,

  /** The user holding this e-mail address, if any (by external id: the caller compares). */
  emailTakenBy: (executor: Executor, email: string) =>
    executor
      .selectFrom('users')
      .select('external_id')
      .where('email', '=', email)
      .executeTakeFirst(),

  insertUser: (executor: Executor, values: UserValues) =>
    executor.insertInto('users').values(values).returning(USER_COLUMNS).executeTakeFirstOrThrow(),

  updateUser: (executor: Executor, id: number, values: Partial<UserValues>) =>
    executor
      .updateTable('users')
      .set(values)
      .where('id', '=', id)
      .returning(USER_COLUMNS)
      .executeTakeFirstOrThrow(),

  hasConversations: async (executor: Executor, userId: number): Promise<boolean> => {
    const row = await executor
      .selectFrom('messenger_users')
      .select('id')
      .where((eb) => eb.or([eb('candidate_id', '=', userId), eb('company_id', '=', userId)]))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Erasure: personal data gone, the mark set; sessions, tokens, settings and saved replies deleted. */
  eraseUser: async (executor: Executor, userId: number, deletedName: string, now: string) => {
    await executor
      .updateTable('users')
      .set({
        name: deletedName,
        email: null,
        password_hash: null,
        image_url: null,
        logo: null,
        locale: null,
        erased_at: now,
      })
      .where('id', '=', userId)
      .execute();
    const sessions = await executor
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .returning('id')
      .execute();
    await executor.deleteFrom('api_tokens').where('user_id', '=', userId).execute();
    await executor.deleteFrom('user_settings').where('user_id', '=', userId).execute();
    await executor.deleteFrom('message_templates').where('user_id', '=', userId).execute();
    return sessions.map((session) => session.id);
  },

  findJobByExternalId: (executor: Executor, externalId: string) =>
    executor
      .selectFrom('jobs')
      .select(JOB_COLUMNS)
      .where('external_id', '=', externalId)
      .executeTakeFirst(),

  insertJob: (executor: Executor, values: Omit<Database['jobs'], 'id'>) =>
    executor.insertInto('jobs').values(values).returning(JOB_COLUMNS).executeTakeFirstOrThrow(),

  updateJob: (
    executor: Executor,
    id: number,
    values: Pick<Database['jobs'], 'company_id' | 'title' | 'status' | 'deadline'>,
  ) =>
    executor
      .updateTable('jobs')
      .set(values)
      .where('id', '=', id)
      .returning(JOB_COLUMNS)
      .executeTakeFirstOrThrow(),

  /** The company's group of this name, created the first time it is used. */
  groupId: async (executor: Executor, companyId: number, name: string): Promise<number> => {
    await executor
      .insertInto('application_groups')
      .values({ company_id: companyId, name })
      .onConflict((oc) => oc.columns(['company_id', 'name']).doNothing())
      .execute();
    const row = await executor
      .selectFrom('application_groups')
      .select('id')
      .where('company_id', '=', companyId)
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return row.id;
  },

  setApplicationGroup: async (
    executor: Executor,
    jobId: number,
    candidateId: number,
    groupId: number | null,
    now: string,
  ) => {
    await executor
      .insertInto('applications')
      .values({
        job_id: jobId,
        candidate_id: candidateId,
        application_group_id: groupId,
        created_at: now,
      })
      .onConflict((oc) =>
        oc.columns(['job_id', 'candidate_id']).doUpdateSet({ application_group_id: groupId }),
      )
      .execute();
  },

  findConversationId: async (
    executor: Executor,
    candidateId: number,
    companyId: number,
    jobKey: number,
  ) =>
    (
      await executor
        .selectFrom('messenger_users')
        .select('id')
        .where('candidate_id', '=', candidateId)
        .where('company_id', '=', companyId)
        .where('job_key', '=', jobKey)
        .executeTakeFirst()
    )?.id,

  /** Creates the conversation unless it exists (a concurrent start wins the race harmlessly). */
  insertConversation: async (
    executor: Executor,
    values: { candidateId: number; companyId: number; jobId: number | null; now: string },
  ): Promise<boolean> => {
    const inserted = await executor
      .insertInto('messenger_users')
      .values({
        candidate_id: values.candidateId,
        company_id: values.companyId,
        ...conversationJob(values.jobId),
        last_message: null,
        last_message_at: null,
        activity_at: values.now,
        created_at: values.now,
      })
      .onConflict((oc) => oc.columns(['candidate_id', 'company_id', 'job_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  },
});

export type IntegrationRepository = ReturnType<typeof createIntegrationRepository>;
export type IntegrationUserRow = NonNullable<
  Awaited<ReturnType<IntegrationRepository['findUserByExternalId']>>
>;
