import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type {
  StartConversationBody,
  StartConversationResponse,
} from '../../../shared/integration.js';
import type { AuthUser } from '../../../shared/models.js';
import type { Database } from '../../db/schema.js';
import { tooManyRequests, validationFailed } from '../../lib/http-error.js';
import type { LimitStore } from '../../lib/limit-store.js';
import { nowIso } from '../../lib/time.js';
import type { MessengerService } from '../messenger/messenger.service.js';
import type { IntegrationRepository, IntegrationUserRow } from './integration.repository.js';
import { findLiveUser } from './integration-users.js';

export interface ConversationStartParts {
  db: Kysely<Database>;
  repository: IntegrationRepository;
  messengerService: MessengerService;
  publicUrl: URL;
  /** Where the host's own send limit is kept (in Redis: shared by every instance). */
  limits: LimitStore;
  /** The host's messages, per integration key: a token bucket (its burst as large). */
  hostSendRate: { burst: number; perSecond: number };
}

/** A name-based (version 5 layout) UUID from text: the same text, the same id. */
const derivedClientId = (text: string): string => {
  const hex = createHash('sha256').update(`integration-message|${text}`).digest('hex');
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/** The parties' rows and the conversation's id, inserted unless it already exists (`created`). */
const openConversation = (
  { db, repository }: ConversationStartParts,
  body: StartConversationBody,
): Promise<{
  company: IntegrationUserRow;
  candidate: IntegrationUserRow;
  conversationId: number;
  jobId: number | null;
  created: boolean;
}> =>
  db.transaction().execute(async (trx) => {
    const companyRow = await findLiveUser(repository, trx, 'company', body.company, [
      'company',
      'owner',
    ]);
    const candidateRow = await findLiveUser(repository, trx, 'candidate', body.candidate, [
      'candidate',
    ]);
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
    const id = await repository.findConversationId(trx, candidateRow.id, companyRow.id, jobId ?? 0);
    if (id === undefined) throw new Error('The conversation vanished after its insert.');
    return {
      company: companyRow,
      candidate: candidateRow,
      conversationId: id,
      jobId,
      created: inserted,
    };
  });

/**
 * Starts (or finds) the conversation of a company and a candidate, optionally about a job, and
 * sends the first message as that party, exactly like a send from the page.
 */
export const startIntegrationConversation = async (
  parts: ConversationStartParts,
  body: StartConversationBody,
  /** Which integration key called (a fingerprint, never the secret): its own send limit. */
  caller: { key: string },
): Promise<{ created: boolean; response: StartConversationResponse }> => {
  const { messengerService } = parts;
  if (body.message) {
    const { burst, perSecond } = parts.hostSendRate;
    const wait = await parts.limits.take(`send:host:${caller.key}`, burst, perSecond);
    if (wait > 0)
      throw tooManyRequests(wait, 'Too many messages from this integration key. Please slow down.');
  }
  const { company, candidate, conversationId, jobId, created } = await openConversation(
    parts,
    body,
  );

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
    const url = new URL('/messages', parts.publicUrl);
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
};
