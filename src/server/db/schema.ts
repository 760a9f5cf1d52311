import type { Generated, Insertable, Selectable } from 'kysely';

/** Timestamps are stored as ISO 8601 UTC text so that SQLite and PostgreSQL share one query code. */
export interface UsersTable {
  id: Generated<number>;
  role: 'candidate' | 'company' | 'owner';
  name: string;
  /** Optional for users the host site brings in (they sign in through `/sso`); null once erased. */
  email: string | null;
  /** Null: no password sign-in (a user from the host site, or erased). */
  password_hash: string | null;
  image_url: string | null;
  logo: string | null;
  created_at: string;
  /** The host job board's own id for this user (integration API, sign-in links). */
  external_id: string | null;
  /**
   * The user's one language: written by the host (integration API, sign-in links) and by the user
   * (settings, the page), the last write wins; null: never set (the page then follows the browser,
   * e-mails are in English).
   */
  locale: 'en' | 'ar' | null;
  /** Set when the host erased the user: no sign-in, no new messages, personal data gone. */
  erased_at: string | null;
  /** When the user's last live socket closed (after the grace); null: never seen. */
  last_seen_at: string | null;
  /** Set while the host suspends the user: they sign in and read, but cannot send, type or upload. */
  suspended_at: string | null;
}

export interface JobsTable {
  id: Generated<number>;
  company_id: number;
  title: string;
  status: string;
  deadline: string | null;
  created_at: string;
  /** The host job board's own id for this job. */
  external_id: string | null;
}

export interface ApplicationGroupsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
}

export interface ApplicationsTable {
  id: Generated<number>;
  job_id: number;
  candidate_id: number;
  application_group_id: number | null;
  created_at: string;
}

export interface MessengerUsersTable {
  id: Generated<number>;
  candidate_id: number;
  company_id: number;
  job_id: number | null;
  /** job_id, or 0 when there is none: makes (candidate, company, job-or-none) unique on both databases. */
  job_key: number;
  last_message: string | null;
  last_message_at: string | null;
  /** last_message_at, or created_at before the first message: the list's sort key, never null. */
  activity_at: string;
  candidate_unread: Generated<number>;
  company_unread: Generated<number>;
  candidate_archive: Generated<number>;
  company_archive: Generated<number>;
  created_at: string;
}

/** A conversation's job columns as written: `job_key` follows `job_id`, 0 when there is none. */
export const conversationJob = (jobId: number | null) => ({ job_id: jobId, job_key: jobId ?? 0 });

export interface ChatsTable {
  id: Generated<number>;
  messenger_user_id: number;
  sender_id: number;
  receiver_id: number;
  job_id: number | null;
  message: string;
  client_id: string | null;
  created_at: string;
  seen_at: string | null;
  /** 1: read while the reader had `read_receipts` off; never shown to the sender as seen. */
  seen_privately: Generated<number>;
  /** When the notification rule took this unseen message (e-mail / `message.unseen`); null: not yet. */
  notified_at: Generated<string | null>;
  /** When the sender last edited the text (migration 014); null: never. */
  edited_at: Generated<string | null>;
  /** When the sender deleted it (text emptied, files gone; migration 014); null: not deleted. */
  deleted_at: Generated<string | null>;
  /**
   * PostgreSQL only (migration 016; SQLite keeps its index in the FTS5 table `chats_search`): the
   * message's words for the full-text search (src/server/db/search-index.ts); null: none, or
   * deleted. Never selected: written with the text, matched with `@@`.
   */
  search_vector: Generated<string | null>;
}

export interface SessionsTable {
  /** sha256 of the cookie value: a stolen database does not yield live sessions. */
  id: string;
  user_id: number;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  /** Set by the owner when issuing it (shown in the list). */
  name: string | null;
  created_at: string;
  /** Always set for new tokens; an expired token authenticates nobody. */
  expires_at: string | null;
  last_used_at: string | null;
}

/** What a deployment keeps across restarts: the generated broadcaster secret, the demo marker. */
export interface AppSettingsTable {
  name: string;
  value: string;
  created_at: string;
}

/** A user's switches; no row: the defaults. Booleans as 0/1 (SQLite has no boolean). */
export interface UserSettingsTable {
  user_id: number;
  email_notifications: number;
  read_receipts: number;
  show_online: number;
  browser_notifications: number;
  /** An IANA time zone (e.g. `Asia/Riyadh`); null: UTC. */
  time_zone: string | null;
  updated_at: string;
}

/** Sign-in link ids already used, kept until the link would have expired anyway. */
export interface SsoUsedTokensTable {
  jti: string;
  expires_at: string;
}

/**
 * Durable work for a worker (ADR 013). Done: `done_at` set (`last_error` null: it succeeded; set:
 * given up after its last attempt). Claimed: `locked_by` / `locked_until` (the lease).
 */
export interface OutboxTable {
  id: Generated<number>;
  kind: string;
  /** Unique: enqueueing the same task again is a no-op. */
  dedupe_key: string;
  /** JSON. */
  payload: string;
  /** Not before this moment (ISO UTC); moved on by a failed attempt's backoff. */
  run_at: string;
  /** Failed attempts so far. */
  attempts: Generated<number>;
  locked_until: string | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: string;
  done_at: string | null;
}

/** When the notification rule last fired for a receiver (the minimum interval between e-mails). */
export interface NotificationRecipientsTable {
  user_id: number;
  /** When the rule last took a batch for them (e-mail or not). */
  last_notified_at: string | null;
  /** When their last notification e-mail was accepted by the SMTP server. */
  last_emailed_at: string | null;
  /** The outbox dedupe key of their last batch's e-mail (no new one while it is not done). */
  last_email_key: string | null;
}

/** An upload; attached to a message once sent (`chat_id`). */
export interface AttachmentsTable {
  id: Generated<number>;
  uploader_id: number;
  chat_id: number | null;
  /** The name as shown and downloaded (sanitized). */
  name: string;
  size: number;
  /** Judged from the bytes. */
  mime: string;
  width: number | null;
  height: number | null;
  storage_key: string;
  thumbnail_key: string | null;
  created_at: string;
}

/** A user (blocker) who blocked another (blocked): nothing of the blocked one reaches the blocker. */
export interface UserBlocksTable {
  blocker_id: number;
  blocked_id: number;
  created_at: string;
}

/** A report of a conversation's other party, with the conversation's latest messages as they were. */
export interface ReportsTable {
  id: Generated<number>;
  reporter_id: number;
  reported_id: number;
  messenger_user_id: number;
  reason: 'spam' | 'scam' | 'harassment' | 'inappropriate' | 'other';
  details: string | null;
  status: 'open' | 'resolved' | 'dismissed';
  /** JSON: the contract's Chat[] (oldest first) when the report was filed; never changed after. */
  messages: string;
  created_at: string;
  updated_at: string;
}

/**
 * SQLite only (migration 016): the contentless FTS5 index of messages' words, rowid = chats.id,
 * body = `searchDocument(message)` (src/server/db/search-index.ts). Written and matched, never read.
 */
export interface ChatsSearchTable {
  rowid: number;
  body: string;
}

/** Saved replies: a user's own texts to insert in the composer. */
export interface MessageTemplatesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface Database {
  users: UsersTable;
  jobs: JobsTable;
  application_groups: ApplicationGroupsTable;
  applications: ApplicationsTable;
  messenger_users: MessengerUsersTable;
  chats: ChatsTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  app_settings: AppSettingsTable;
  user_settings: UserSettingsTable;
  sso_used_tokens: SsoUsedTokensTable;
  outbox: OutboxTable;
  notification_recipients: NotificationRecipientsTable;
  attachments: AttachmentsTable;
  user_blocks: UserBlocksTable;
  reports: ReportsTable;
  chats_search: ChatsSearchTable;
  /** SQLite only (migration 016): every word ever indexed in `chats_search`. */
  chats_search_terms: { term: string };
  message_templates: MessageTemplatesTable;
}

export type UserRow = Selectable<UsersTable>;
export type JobRow = Selectable<JobsTable>;
export type MessengerUserRow = Selectable<MessengerUsersTable>;
export type ChatRow = Selectable<ChatsTable>;
export type NewChat = Insertable<ChatsTable>;
export type OutboxRow = Selectable<OutboxTable>;
