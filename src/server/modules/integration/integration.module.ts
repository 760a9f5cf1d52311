import type { LimitStore } from '../../lib/limit-store.js';
import type { ModuleBasics, ModuleLogger } from '../module-basics.js';
import { createIntegrationRepository } from './integration.repository.js';
import { createIntegrationService, type IntegrationServiceOptions } from './integration.service.js';

/** The host's server-to-server API: users by its ids, conversations, its own messages, erasure. */
export const createIntegrationModule = ({
  config,
  db,
  limits,
  logger,
  ...parts
}: ModuleBasics & { limits: LimitStore; logger: ModuleLogger } & Pick<
    IntegrationServiceOptions,
    'messengerService' | 'settingsService' | 'events' | 'closeSockets'
  >) =>
  createIntegrationService({
    db: db.kysely,
    repository: createIntegrationRepository(db),
    publicUrl: config.publicUrl,
    limits,
    // the burst is one second's worth (at least one message): HOST_SEND_RATE_PER_SECOND at once
    hostSendRate: {
      burst: Math.max(1, Math.ceil(config.hostSendRatePerSecond)),
      perSecond: config.hostSendRatePerSecond,
    },
    onCloseSocketsError: (error) =>
      logger.error({ err: error }, 'erasure: could not close every live socket of the user'),
    ...parts,
  });
