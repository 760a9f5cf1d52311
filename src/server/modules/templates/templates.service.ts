import type { Kysely } from 'kysely';
import type { AuthUser } from '../../../shared/models.js';
import { TEMPLATES_PER_USER, type Template } from '../../../shared/saved-replies.js';
import type { Database } from '../../db/schema.js';
import { notFound, validationFailed } from '../../lib/http-error.js';
import { nowIso } from '../../lib/time.js';
import type { TemplatesRepository } from './templates.repository.js';

export const TOO_MANY_TEMPLATES = `You can keep at most ${TEMPLATES_PER_USER} saved replies. Delete one to add another.`;
export const TEMPLATE_NOT_FOUND = 'No such saved reply.';

export interface TemplatesServiceOptions {
  db: Kysely<Database>;
  repository: TemplatesRepository;
}

/**
 * Saved replies: each user keeps their own (at most TEMPLATES_PER_USER) and nobody else sees or
 * changes them: another user's id answers as a missing one (404).
 */
export const createTemplatesService = ({ db, repository }: TemplatesServiceOptions) => ({
  async list(viewer: AuthUser): Promise<Template[]> {
    return repository.list(db, viewer.id);
  },

  /** A new saved reply; 422 on `name` when the viewer already keeps the most allowed. */
  async create(viewer: AuthUser, input: { name: string; body: string }): Promise<Template> {
    const created = await db.transaction().execute(async (trx) => {
      await repository.lockUser(trx, viewer.id);
      return repository.insertBelowLimit(trx, {
        userId: viewer.id,
        name: input.name,
        body: input.body,
        now: nowIso(),
        max: TEMPLATES_PER_USER,
      });
    });
    if (!created) throw validationFailed('name', TOO_MANY_TEMPLATES);
    return created;
  },

  async update(
    viewer: AuthUser,
    id: number,
    change: { name?: string | undefined; body?: string | undefined },
  ): Promise<Template> {
    const updated = await repository.update(db, viewer.id, id, { ...change, now: nowIso() });
    if (!updated) throw notFound(TEMPLATE_NOT_FOUND);
    return updated;
  },

  async delete(viewer: AuthUser, id: number): Promise<void> {
    if (!(await repository.delete(db, viewer.id, id))) throw notFound(TEMPLATE_NOT_FOUND);
  },
});

export type TemplatesService = ReturnType<typeof createTemplatesService>;
