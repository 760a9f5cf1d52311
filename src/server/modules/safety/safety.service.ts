import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ID_MAX } from '../../../shared/api-fields.js';
import type { AuthUser, Chat, HostChat } from '../../../shared/models.js';
import {
  REPORT_MESSAGES_KEPT,
  REPORTS_PER_DAY,
  type Block,
  type CreateReportResponse,
  type HostReport,
  type ReportCreatedWebhookData,
  type ReportStatus,
} from '../../../shared/safety.js';
import type { Executor } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { forbidden, notFound, tooManyRequests, validationFailed } from '../../lib/http-error.js';
import { nowIso } from '../../lib/time.js';
import { presentChat } from '../../read-model/chat.presenter.js';
import type { ReportRow, SafetyRepository } from './safety.repository.js';

/** The window of the daily report allowance: a rolling day. */
const REPORT_WINDOW_MS = 24 * 3600_000;
/** Reports per page of the host's list. */
export const REPORTS_PAGE_SIZE = 50;

export const NOT_A_PARTNER = 'Only someone you have a conversation with can be blocked.';
export const TOO_MANY_REPORTS = `You can file at most ${REPORTS_PER_DAY} reports a day. Please try again later.`;

export interface SafetyServiceOptions {
  db: Kysely<Database>;
  repository: SafetyRepository;
  /** Presence: each party of a block that began or ended sees how the other now looks. */
  presence: {
    pairVisibilityChanged(pair: readonly [number, number], visible: boolean): Promise<void>;
  };
  /** Notifications: the host's `report.created` webhook, enqueued in the report's commit. */
  notifications: {
    reportCreated(executor: Executor, data: ReportCreatedWebhookData, at: string): Promise<unknown>;
  };
  onPublishError: (error: unknown) => void;
}

/** What a host-list cursor carries (base64url of its JSON: opaque to the client). */
const reportCursorSchema = z.object({ id: z.number().int().min(1).max(ID_MAX) }).strict();
const BAD_CURSOR = 'The cursor is not a cursor from a previous answer.';
const encodeCursor = (id: number): string =>
  Buffer.from(JSON.stringify({ id }), 'utf8').toString('base64url');
const decodeCursor = (text: string): number => {
  try {
    return reportCursorSchema.parse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))).id;
  } catch {
    throw validationFailed('cursor', BAD_CURSOR);
  }
};

/** The host's ids of a reported message's sender, receiver and job (users and jobs keep theirs). */
const hostIdsOfReported = (
  row: ReportRow,
  message: Pick<Chat, 'sender_id' | 'receiver_id' | 'job_id'>,
): Pick<HostChat, 'sender_external_id' | 'receiver_external_id' | 'job_external_id'> => {
  const externalIdOf = (userId: number) =>
    userId === row.reporter_id
      ? row.reporter_external_id
      : userId === row.reported_id
        ? row.reported_external_id
        : null;
  return {
    sender_external_id: externalIdOf(message.sender_id),
    receiver_external_id: externalIdOf(message.receiver_id),
    job_external_id: message.job_id === null ? null : row.job_external_id,
  };
};

const presentReport = (row: ReportRow): HostReport => ({
  id: row.id,
  reason: row.reason,
  details: row.details,
  reporter_external_id: row.reporter_external_id,
  reported_external_id: row.reported_external_id,
  messenger_user_id: row.messenger_user_id,
  // copies made before messages could be edited lack the two fields: never edited nor deleted
  messages: (JSON.parse(row.messages) as Chat[]).map((message) => ({
    ...message,
    edited_at: message.edited_at ?? null,
    deleted_at: message.deleted_at ?? null,
    // every message of the copy is between the two parties, about the conversation's job
    ...hostIdsOfReported(row, message),
  })),
  status: row.status,
  created_at: row.created_at,
});

/**
 * Keeping people safe: blocks between conversation partners, reports of a conversation (with a
 * frozen copy of its latest messages) and the host's handling of them. Each change commits, then
 * tells whoever must hear of it (presence of the pair; the host's webhook rides in the commit).
 */
export const createSafetyService = (options: SafetyServiceOptions) => {
  const { db, repository, presence } = options;

  /** A block began or ended: the pair's presence toward each other follows (never fails the call). */
  const pairChanged = async (a: number, b: number) => {
    const visible = !(await repository.blockedEitherWay(db, a, b));
    await presence.pairVisibilityChanged([a, b], visible).catch(options.onPublishError);
  };

  return {
    async listBlocks(viewer: AuthUser): Promise<Block[]> {
      return repository.listBlocks(db, viewer.id);
    },

    /** Blocks a conversation partner (422 on `user_id` for anyone else); `created` tells 201 from 200. */
    async block(viewer: AuthUser, userId: number): Promise<{ created: boolean; block: Block }> {
      const partner =
        userId === viewer.id ? undefined : await repository.findPartner(db, viewer.id, userId);
      if (!partner) throw validationFailed('user_id', NOT_A_PARTNER);
      const { created, block } = await db.transaction().execute(async (trx) => {
        const inserted = await repository.insertBlock(trx, viewer.id, userId, nowIso());
        const row = await repository.findBlock(trx, viewer.id, userId);
        if (!row) throw new Error('The block vanished after its insert.');
        return { created: inserted, block: row };
      });
      if (created) await pairChanged(viewer.id, userId);
      return { created, block };
    },

    /** Lifts the viewer's block of the user (nothing to lift changes nothing). */
    async unblock(viewer: AuthUser, userId: number): Promise<void> {
      if (await repository.deleteBlock(db, viewer.id, userId)) await pairChanged(viewer.id, userId);
    },

    /**
     * Files a report of the other party of one of the viewer's conversations (404: no such
     * conversation; 403: not the viewer's), at most REPORTS_PER_DAY in a rolling day (429). The conversation's latest
     * messages are copied as they are now; with `block`, the other party is blocked in the same
     * commit; the host's `report.created` webhook is enqueued in it too.
     */
    async report(
      viewer: AuthUser,
      input: {
        messenger_user_id: number;
        reason: HostReport['reason'];
        details?: string | undefined;
        block?: boolean | undefined;
      },
    ): Promise<CreateReportResponse> {
      const conversation = await repository.findConversation(db, input.messenger_user_id);
      if (!conversation) throw notFound('Conversation not found.');
      // as every call about a conversation: 403 for one that is not the viewer's
      if (conversation.candidate_id !== viewer.id && conversation.company_id !== viewer.id)
        throw forbidden();
      const reportedId =
        conversation.candidate_id === viewer.id
          ? conversation.company_id
          : conversation.candidate_id;
      const now = nowIso();
      const since = new Date(Date.parse(now) - REPORT_WINDOW_MS).toISOString();
      type Outcome =
        | { refusedForSeconds: number }
        | { report: CreateReportResponse['report']; blocked: boolean };
      const outcome = await db.transaction().execute(async (trx): Promise<Outcome> => {
        await repository.lockReporter(trx, viewer.id);
        const filed = await repository.countReportsSince(trx, viewer.id, since);
        if (filed.total >= REPORTS_PER_DAY) {
          const oldest = filed.oldest ? Date.parse(filed.oldest) : Date.parse(now);
          return { refusedForSeconds: (oldest + REPORT_WINDOW_MS - Date.parse(now)) / 1000 };
        }
        const { chats, files } = await repository.latestMessages(
          trx,
          conversation.id,
          REPORT_MESSAGES_KEPT,
        );
        const messages = chats.reverse().map((chat) =>
          presentChat(
            chat,
            files.filter((file) => file.chat_id === chat.id),
          ),
        );
        const inserted = await repository.insertReport(trx, {
          reporter_id: viewer.id,
          reported_id: reportedId,
          messenger_user_id: conversation.id,
          reason: input.reason,
          details: input.details ?? null,
          status: 'open',
          messages: JSON.stringify(messages),
          created_at: now,
          updated_at: now,
        });
        const blocked =
          input.block === true && (await repository.insertBlock(trx, viewer.id, reportedId, now));
        const row = await repository.findReport(trx, inserted.id);
        if (!row) throw new Error('The report vanished after its insert.');
        const { status: _status, created_at: _createdAt, ...report } = presentReport(row);
        await options.notifications.reportCreated(trx, { report }, now);
        return { report: { id: inserted.id, status: 'open', created_at: now }, blocked };
      });
      if ('refusedForSeconds' in outcome)
        throw tooManyRequests(outcome.refusedForSeconds, TOO_MANY_REPORTS);
      if (outcome.blocked) await pairChanged(viewer.id, reportedId);
      return { report: outcome.report };
    },

    /** The host's list: newest first, by status or not, a page at a time (`next_cursor`). */
    async listReports(query: {
      status?: ReportStatus | undefined;
      cursor?: string | undefined;
    }): Promise<{ reports: HostReport[]; next_cursor: string | null }> {
      const rows = await repository.listReports(db, {
        status: query.status ?? null,
        beforeId: query.cursor === undefined ? null : decodeCursor(query.cursor),
        limit: REPORTS_PAGE_SIZE + 1,
      });
      const page = rows.slice(0, REPORTS_PAGE_SIZE);
      const last = page.at(-1);
      return {
        reports: page.map(presentReport),
        next_cursor: rows.length > REPORTS_PAGE_SIZE && last ? encodeCursor(last.id) : null,
      };
    },

    /** The host resolved or dismissed a report (404: no such report). */
    async setReportStatus(id: number, status: 'resolved' | 'dismissed'): Promise<HostReport> {
      if (!(await repository.setReportStatus(db, id, status, nowIso())))
        throw notFound('Report not found.');
      const row = await repository.findReport(db, id);
      if (!row) throw notFound('Report not found.');
      return presentReport(row);
    },
  };
};

export type SafetyService = ReturnType<typeof createSafetyService>;
