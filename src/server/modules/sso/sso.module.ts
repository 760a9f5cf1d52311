import type { ModuleBasics } from '../module-basics.js';
import { createSsoRepository } from './sso.repository.js';
import { createSsoService, type SsoServiceOptions } from './sso.service.js';

/** Sign-in links from the host site: none (undefined) without SSO_SECRET. */
export const createSsoModule = ({
  config,
  db,
  ...services
}: ModuleBasics & Pick<SsoServiceOptions, 'authService' | 'integrationService'>) =>
  config.ssoSecret
    ? createSsoService({
        db: db.kysely,
        repository: createSsoRepository(db),
        secret: config.ssoSecret,
        ...services,
      })
    : undefined;
