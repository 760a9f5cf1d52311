import type { Db } from '../../db/database.js';
import type { ModuleBasics, OnRedisError } from '../module-basics.js';
import { MemoryPresenceStore } from './memory-presence-store.js';
import {
  createPresenceAnnouncements,
  type PresenceAnnouncements,
  type PresenceAnnouncementsOptions,
} from './presence-announcements.js';
import type { PresenceStore } from './presence-store.js';
import { createPresenceRepository } from './presence.repository.js';
import { createPresenceService, type PresenceLogger } from './presence.service.js';
import { RedisPresenceStore } from './redis-presence-store.js';

export type { PresenceAnnouncements } from './presence-announcements.js';
export type { PresenceStore } from './presence-store.js';

/**
 * Who is online: shared by every instance through Redis when REDIS_URL is set (under the app's own
 * key prefix), else this process's memory.
 */
export const createPresenceStoreFor = ({
  config,
  onRedisError,
}: Pick<ModuleBasics, 'config'> & { onRedisError: OnRedisError }): PresenceStore =>
  config.redisUrl
    ? new RedisPresenceStore(config.redisUrl, `presence:${config.pusher.appId}`, onRedisError)
    : new MemoryPresenceStore();

/**
 * What follows a change of presence (last seen, the partners told, `onWentOffline`), on a database
 * connection of its own thread: the request thread's, or the background thread's.
 */
export const createPresenceAnnouncementsFor = ({
  db,
  ...options
}: { db: Db } & Omit<PresenceAnnouncementsOptions, 'db' | 'repository'>): PresenceAnnouncements =>
  createPresenceAnnouncements({
    db: db.kysely,
    repository: createPresenceRepository(db),
    ...options,
  });

/** Presence itself: the store, the announcements (wherever they run) and the grace of a reload. */
export const createPresenceModule = ({
  config,
  store,
  announcements,
  logger,
}: Pick<ModuleBasics, 'config'> & {
  store: PresenceStore;
  announcements: PresenceAnnouncements;
  logger: PresenceLogger;
}) => createPresenceService({ store, announcements, graceMs: config.presenceGraceMs, logger });
