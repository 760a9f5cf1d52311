import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type {
  IntegrationUser,
  StartConversationBody,
  StartConversationResponse,
  UpsertJobBody,
  UpsertUserBody,
} from '../../../shared/integration.js';
import { DELETED_USER_NAME, type AuthUser, type Role } from '../../../shared/models.js';
import { retryOnUniqueViolation, type Executor } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { HttpError, notFound, tooManyRequests, validationFailed } from '../../lib/http-error.js';
import type { LimitStore } from '../../lib/limit-store.js';
import { nowIso } from '../../lib/time.js';
import type { MessengerService } from '../messenger/messenger.service.js';
import type { ModuleEventBus } from '../module-events.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { IntegrationRepository, IntegrationUserRow } from './integration.repository.js';

/** The key under which every live socket of a user is also bound (erasure closes them all). */
export const userSocketsKey = (userId: number): string => `user:${userId}`;

export interface IntegrationServiceOptions {
  db: Kysely<Database>;
  repository: IntegrationRepository;
  messengerService: MessengerService;
  /** Writes the `settings` of a user upsert (inside its transaction). */
  settingsService: SettingsService;
  publicUrl: URL;
  /** Where the host's own send limit is kept (in Redis: shared by every instance). */
  limits: LimitStore;
  /**
   * The host's messages (`POST /api/v1/conversations` with `message`), per integration key: a token
   * bucket (HOST_SEND_RATE_PER_SECOND, its burst as large). The senders' own SEND_RATE_* limits do
   * not count them.
   */
  hostSendRate: { burst: number; perSecond: number };
  /** Told `userChanged`: requests must not go on seeing the old name, role or credentials. */
  events: Pick<ModuleEventBus, 'emit'>;
  /** Closes (4009) the live sockets bound to these keys, on every instance. */
  closeSockets: (keys: string[]) => Promise<void>;
  onCloseSocketsError: (error: unknown) => void;
}

const presentUser = (row: IntegrationUserRow): IntegrationUser => ({
  id: row.id,
  external_id: row.external_id ?? '',
  role: row.role,
  name: row.name,
  email: row.email,
  image_url: row.image_url ?? row.logo,
  locale: row.locale,
  suspended: row.suspended_at !== null,
});

const isCompanySide = (role: Role) => role === 'company' || role === 'owner';

const conflict = (message: string) => new HttpError(409, message);

/** A name-based (version 5 layout) UUID from text: the same text, the same id. */
const derivedClientId = (text: string): string => {
  const hex = createHash('sha256').update(`integration-message|${text}`).digest('hex');
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/**
 * The integration API's rules: the host's users, jobs, applications and conversations, by the
 * host's own ids; every write idempotent. A write other users see (a first message) goes through
 * the messenger service's send, which commits, then broadcasts.
 */
export const createIntegrationService = (options: IntegrationServiceOptions) => {
  const { db, repository, messengerService, settingsService } = options;

  /** A live (not erased) user of the host by external id, or a 422 naming the field. */
  const liveUser = async (
    executor: Executor,
    field: string,
    externalId: string,
    roles: readonly Role[],
  ): Promise<IntegrationUserRow> => {
    const user = await repository.findUserByExternalId(executor, externalId);
    if (!user || user.erased_at !== null)
      throw validationFailed(field, `The ${field} is not a known user.`);
    if (!roles.includes(user.role))
      throw validationFailed(field, `The ${field} must be a ${roles.join(' or ')}.`);
    return user;
  };

  return {
    /** Creates or updates a user by external id; `created` tells 201 from 200. */
    async upsertUser(
      externalId: string,
      body: UpsertUserBody,
    ): Promise<{ created: boolean; user: IntegrationUser }> {
      const outcome = await retryOnUniqueViolation(() =>
        db.transaction().execute(async (trx) => {
          const existing = await repository.findUserByExternalId(trx, externalId);
          if (existing?.erased_at)
            throw conflict('This user was erased and cannot be brought back.');
          if (body.email) {
            const holder = await repository.emailTakenBy(trx, body.email);
            // by external id: a concurrent twin of this call may have just created it
            if (holder && holder.external_id !== externalId)
              throw validationFailed('email', 'The email belongs to another user.');
          }
          if (existing && existing.role !== body.role) {
            if (await repository.hasConversations(trx, existing.id))
              throw conflict('The role of a user who has conversations cannot change.');
          }
          // A company's picture is its logo: the list and the header show that for companies.
          const picture = body.image_url;
          const pictureColumns =
            picture === undefined
              ? {}
              : isCompanySide(body.role)
                ? { image_url: picture, logo: picture }
                : { image_url: picture, logo: null };
          let row: IntegrationUserRow;
          if (existing) {
            row = await repository.updateUser(trx, existing.id, {
              role: body.role,
              name: body.name,
              ...(body.email === undefined ? {} : { email: body.email }),
              ...(body.locale === undefined ? {} : { locale: body.locale }),
              ...pictureColumns,
              // suspended since the first suspension (a repeated `true` keeps that moment)
              ...(body.suspended === undefined
                ? {}
                : { suspended_at: body.suspended ? (existing.suspended_at ?? nowIso()) : null }),
            });
          } else {
            row = await repository.insertUser(trx, {
              role: body.role,
              name: body.name,
              email: body.email ?? null,
              password_hash: null,
              image_url: null,
              logo: null,
              ...pictureColumns,
              created_at: nowIso(),
              external_id: externalId,
              locale: body.locale ?? null,
              erased_at: null,
              suspended_at: body.suspended ? nowIso() : null,
            });
          }
          const settings = body.settings
            ? await settingsService.updateSettingsIn(trx, row.id, body.settings)
            : undefined;
          return { created: !existing, user: presentUser(row), userId: row.id, settings };
        }),
      );
      // Committed: requests signed in as this user see the new name and role.
      if (!outcome.created) await options.events.emit('userChanged', { userId: outcome.userId });
      // Online partners see the user appear or vanish, as when they switch it themselves.
      if (outcome.settings && body.settings?.show_online !== undefined)
        await settingsService.showOnlineChanged(outcome.userId, outcome.settings.show_online);
      return { created: outcome.created, user: outcome.user };
    },

    async getUser(externalId: string): Promise<IntegrationUser> {
      const row = await repository.findUserByExternalId(db, externalId);
      if (!row || row.erased_at !== null) throw notFound('User not found.');
      return presentUser(row);
    },

    /**
     * A user's unread messages over all their conversations, the total their page shows (for the
     * host's own header); 404 for an unknown or erased user.
     */
    async userUnread(externalId: string): Promise<{ unread_total: number }> {
      const row = await repository.findUserByExternalId(db, externalId);
      if (!row || row.erased_at !== null) throw notFound('User not found.');
      return { unread_total: await messengerService.unreadTotal(row) };
    },

    /** The host's id of a user (null: a user the host did not make, e.g. a demo account). */
    async externalIdOf(userId: number): Promise<string | null> {
      const [row] = await repository.externalIdsOfUsers(db, [userId]);
      return row?.external_id ?? null;
    },

    /** A conversation's parties and job by the host's ids (null where the host made none). */
    async hostIdsOf(conversation: {
      company_id: number;
      candidate_id: number;
      job_id: number | null;
    }): Promise<{
      company_external_id: string | null;
      candidate_external_id: string | null;
      job_external_id: string | null;
    }> {
      const users = await repository.externalIdsOfUsers(db, [
        conversation.company_id,
        conversation.candidate_id,
      ]);
      const of = (id: number) => users.find((user) => user.id === id)?.external_id ?? null;
      return {
        company_external_id: of(conversation.company_id),
        candidate_external_id: of(conversation.candidate_id),
        job_external_id:
          conversation.job_id === null
            ? null
            : await repository.findJobExternalId(db, conversation.job_id),
      };
    },

    /**
     * Erasure: sessions, tokens and settings deleted and personal data removed in one transaction,
     * then every live socket of the user closed (on every instance). Erasing again changes nothing.
     */
    async eraseUser(externalId: string): Promise<void> {
      const erased = await db.transaction().execute(async (trx) => {
        const user = await repository.findUserByExternalId(trx, externalId);
        if (!user) throw notFound('User not found.');
        if (user.erased_at !== null) return null;
        const sessions = await repository.eraseUser(trx, user.id, DELETED_USER_NAME, nowIso());
        return { userId: user.id, sessions };
      });
      if (!erased) return;
      await options.events.emit('userChanged', { userId: erased.userId });
      await options
        .closeSockets([userSocketsKey(erased.userId), ...erased.sessions])
        .catch(options.onCloseSocketsError);
    },

    async upsertJob(externalId: string, body: UpsertJobBody) {
      return retryOnUniqueViolation(() =>
        db.transaction().execute(async (trx) => {
          const company = await liveUser(trx, 'company', body.company, ['company', 'owner']);
          const values = {
            company_id: company.id,
            title: body.title,
            status: body.status,
            // left out: no deadline
            deadline: body.deadline ?? null,
          };
          const existing = await repository.findJobByExternalId(trx, externalId);
          const job = existing
            ? await repository.updateJob(trx, existing.id, values)
            : await repository.insertJob(trx, {
                ...values,
                created_at: nowIso(),
                external_id: externalId,
              });
          return {
            created: !existing,
            job: { ...job, external_id: job.external_id ?? externalId },
          };
        }),
      );
    },

    async setApplication(jobExternalId: string, candidateExternalId: string, group: string | null) {
      return db.transaction().execute(async (trx) => {
        const job = await repository.findJobByExternalId(trx, jobExternalId);
        if (!job) throw notFound('Job not found.');
        const candidate = await repository.findUserByExternalId(trx, candidateExternalId);
        if (!candidate || candidate.erased_at !== null || candidate.role !== 'candidate')
          throw notFound('Candidate not found.');
        const groupId =
          group === null ? null : await repository.groupId(trx, job.company_id, group);
        await repository.setApplicationGroup(trx, job.id, candidate.id, groupId, nowIso());
        return { application: { job_id: job.id, candidate_id: candidate.id, group } };
      });
    },

    /**
     * Starts (or finds) the conversation of a company and a candidate, optionally about a job, and
     * sends the first message as that party, exactly like a send from the page.
     */
    async startConversation(
      body: StartConversationBody,
      /** Which integration key called (a fingerprint, never the secret): its own send limit. */
      caller: { key: string },
    ): Promise<{ created: boolean; response: StartConversationResponse }> {
      if (body.message) {
        const { burst, perSecond } = options.hostSendRate;
        const wait = await options.limits.take(`send:host:${caller.key}`, burst, perSecond);
        if (wait > 0)
          throw tooManyRequests(
            wait,
            'Too many messages from this integration key. Please slow down.',
          );
      }
      const { company, candidate, conversationId, jobId, created } = await db
        .transaction()
        .execute(async (trx) => {
          const companyRow = await liveUser(trx, 'company', body.company, ['company', 'owner']);
          const candidateRow = await liveUser(trx, 'candidate', body.candidate, ['candidate']);
          let jobId: number | null = null;
          if (body.job) {
            const job = await repository.findJobByExternalId(trx, body.job);
            if (!job) throw validationFailed('job', 'The job is not a known job.');
            if (job.company_id !== companyRow.id)
              throw validationFailed('job', 'The job belongs to another company.');
            jobId = job.id;
          }
          const inserted = await repository.insertConversation(trx, {
            candidateId: candidateRow.id,
            companyId: companyRow.id,
            jobId,
            now: nowIso(),
          });
          const id = await repository.findConversationId(
            trx,
            candidateRow.id,
            companyRow.id,
            jobId ?? 0,
          );
          if (id === undefined) throw new Error('The conversation vanished after its insert.');
          return {
            company: companyRow,
            candidate: candidateRow,
            conversationId: id,
            jobId,
            created: inserted,
          };
        });

      const asCompany: AuthUser = {
        id: company.id,
        name: company.name,
        role: company.role,
        suspended: company.suspended_at !== null,
      };
      const asCandidate: AuthUser = {
        id: candidate.id,
        name: candidate.name,
        role: 'candidate',
        suspended: candidate.suspended_at !== null,
      };
      if (body.message) {
        const sender = body.message.from === 'company' ? asCompany : asCandidate;
        const receiver = body.message.from === 'company' ? asCandidate : asCompany;
        await messengerService.send(
          sender,
          {
            receiver_id: receiver.id,
            messenger_user: conversationId,
            job_id: jobId,
            message: body.message.text,
            // Repeating the call sends nothing twice: without the host's own client_id, the same
            // text from the same side in the same conversation is one message.
            client_id:
              body.message.client_id ??
              derivedClientId(`${conversationId}|${body.message.from}|${body.message.text}`),
          },
          undefined,
          // the host's own limit (above) applies, not the sender's
          { fromHost: true },
        );
      }
      const conversation = await messengerService.conversationFor(asCompany, conversationId);
      const link = (target: number) => {
        const url = new URL('/messages', options.publicUrl);
        url.searchParams.set('target', String(target));
        url.searchParams.set('tab', String(conversationId));
        return url.toString();
      };
      return {
        created,
        response: {
          conversation: {
            ...conversation,
            company_external_id: company.external_id,
            candidate_external_id: candidate.external_id,
            job_external_id: body.job ?? null,
          },
          company_url: link(candidate.id),
          candidate_url: link(company.id),
        },
      };
    },
  };
};

export type IntegrationService = ReturnType<typeof createIntegrationService>;
