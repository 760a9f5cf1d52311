import type { InitialDataResponse } from '../../../../shared/api.js';
import type { ApiClient } from '../../../lib/api-client.js';
import type { InitialDataParams } from '../../../lib/api.js';
import { apiPaths } from '../../../lib/contract.js';

/** `GET /load/messengers/initial/data?job_id=&limit=&cursor=&search=&archived=`. */
export const getInitialData = (
  client: ApiClient,
  { jobId, limit, cursor, search, archived }: InitialDataParams,
): Promise<InitialDataResponse> =>
  client.get<InitialDataResponse>(apiPaths.initialData, {
    query: {
      job_id: jobId ?? '',
      ...(limit === undefined ? {} : { limit }),
      ...(cursor ? { cursor } : {}),
      ...(search ? { search } : {}),
      ...(archived === undefined ? {} : { archived: archived ? 1 : 0 }),
    },
  });
