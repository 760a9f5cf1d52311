import type { AuthUser } from '../../../../shared/models.js';
import { makeChat, makeConversation, users } from '../../../../../test-support/web/fixtures.js';
import { continuesRun, RUN_GAP_MS } from './message-runs.js';

const conversation = makeConversation({
  id: 1,
  candidate: users.sara,
  company: users.acme,
  job: null,
});
const at = (iso: string, from: AuthUser = users.acme) =>
  makeChat(conversation, from, 'hello', { createdAt: iso });

describe('message runs', () => {
  it('the first message, another sender or a long pause start a new run', () => {
    const first = at('2026-05-01T10:00:00Z');
    expect(continuesRun(undefined, first)).toBe(false);
    expect(continuesRun(first, at('2026-05-01T10:01:00Z', users.sara))).toBe(false);
    const later = new Date(Date.parse('2026-05-01T10:00:00Z') + RUN_GAP_MS + 1000).toISOString();
    expect(continuesRun(first, at(later))).toBe(false);
  });

  it('the same sender within a few minutes continues the run', () => {
    const first = at('2026-05-01T10:00:00Z');
    expect(continuesRun(first, at('2026-05-01T10:00:30Z'))).toBe(true);
    expect(continuesRun(first, at('2026-05-01T10:05:00Z'))).toBe(true);
  });

  it('an unparsable time never continues a run', () => {
    expect(continuesRun(at('2026-05-01T10:00:00Z'), at('not a date'))).toBe(false);
  });
});
