import { describe, expect, it } from 'vitest';
import { blockedBy, blockedEitherWay, presentConversation } from './messenger.presenter.js';
import {
  CANDIDATE_SIDE,
  COMPANY_SIDE,
  type ConversationRow,
} from './conversation-query.repository.js';

const row = (changes: Partial<ConversationRow> = {}): ConversationRow => ({
  id: 7,
  candidate_id: 1,
  company_id: 10,
  job_id: null,
  last_message: null,
  last_message_at: null,
  candidate_unread: 0,
  company_unread: 0,
  candidate_archive: 0,
  company_archive: 0,
  candidate_name: 'Sara',
  candidate_image_url: null,
  candidate_erased_at: null,
  company_name: 'Acme',
  company_logo: null,
  company_erased_at: null,
  candidate_last_seen_at: '2026-01-01T00:00:00.000Z',
  company_last_seen_at: '2026-01-02T00:00:00.000Z',
  candidate_show_online: null,
  company_show_online: null,
  candidate_read_receipts: null,
  company_read_receipts: null,
  job_title: null,
  job_status: null,
  job_deadline: null,
  candidate_suspended_at: null,
  company_suspended_at: null,
  candidate_external_id: null,
  company_external_id: null,
  job_external_id: null,
  candidate_blocked: 0,
  company_blocked: 0,
  ...changes,
});
const bothOnline = new Set([1, 10]);

describe('a conversation across a block', () => {
  it('says who blocked whom', () => {
    const blockedByCandidate = row({ candidate_blocked: 1 });
    expect(blockedBy(blockedByCandidate, 'candidate_id')).toBe(true);
    expect(blockedBy(blockedByCandidate, 'company_id')).toBe(false);
    expect(blockedEitherWay(blockedByCandidate)).toBe(true);
    expect(blockedEitherWay(row())).toBe(false);
  });

  it('is marked `blocked` for the blocker only, and neither party sees the other online', () => {
    const blocked = row({ candidate_blocked: 1 });
    expect(presentConversation(blocked, CANDIDATE_SIDE, bothOnline)).toMatchObject({
      blocked: true,
      other_online: false,
      other_last_seen_at: null,
    });
    expect(presentConversation(blocked, COMPANY_SIDE, bothOnline)).toMatchObject({
      blocked: false,
      other_online: false,
      other_last_seen_at: null,
    });
  });

  it('shows presence as usual without a block', () => {
    expect(presentConversation(row(), CANDIDATE_SIDE, bothOnline)).toMatchObject({
      blocked: false,
      other_online: true,
    });
    expect(presentConversation(row(), COMPANY_SIDE, new Set())).toMatchObject({
      other_online: false,
      other_last_seen_at: '2026-01-01T00:00:00.000Z',
    });
  });
});
