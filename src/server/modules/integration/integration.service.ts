import type { Kysely } from 'kysely';
import type {
  IntegrationUser,
  StartConversationBody,
  StartConversationResponse,
  UpsertJobBody,
  UpsertUserBody,
} from '../../../shared/integration.js';
import { retryOnUniqueViolation } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../lib/http-error.js';
import type { LimitStore } from '../../lib/limit-store.js';
import { nowIso } from '../../lib/time.js';
import type { MessengerService } from '../messenger/messenger.service.js';
import type { ModuleEventBus } from '../module-events.js';
import type { SettingsService } from '../settings/settings.service.js';
import { startIntegrationConversation } from './integration-conversation-start.js';
import { eraseIntegrationUser } from './integration-erasure.js';
import { upsertIntegrationUser } from './integration-user-upsert.js';
import { findLiveUser, presentUser } from './integration-users.js';
import type { IntegrationRepository } from './integration.repository.js';

export { userSocketsKey } from './integration-erasure.js';

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

/**
 * The integration API's rules: the host's users, jobs, applications and conversations, by the
 * host's own ids; every write idempotent. A write other users see (a first message) goes through
 * the messenger service's send, which commits, then broadcasts.
 */
export const createIntegrationService = (options: IntegrationServiceOptions) => {
  const { db, repository, messengerService } = options;

  return {
    /** Creates or updates a user by external id; `created` tells 201 from 200. */
    async upsertUser(
      externalId: string,
      body: UpsertUserBody,
    ): Promise<{ created: boolean; user: IntegrationUser }> {
      return upsertIntegrationUser(options, externalId, body);
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
      return eraseIntegrationUser(options, externalId);
    },

    async upsertJob(externalId: string, body: UpsertJobBody) {
      return retryOnUniqueViolation(() =>
        db.transaction().execute(async (trx) => {
          const company = await findLiveUser(repository, trx, 'company', body.company, [
            'company',
            'owner',
          ]);
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
      return startIntegrationConversation(options, body, caller);
    },
  };
};

export type IntegrationService = ReturnType<typeof createIntegrationService>;
