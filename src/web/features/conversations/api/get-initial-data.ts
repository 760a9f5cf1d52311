import type { InitialDataResponse } from '../../../../shared/api.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { apiPaths } from '../../../lib/contract.js';

/** `GET /load/messengers/initial/data?job_id=` (empty = all jobs). */
export const getInitialData = (
  client: ApiClient,
  { jobId }: { jobId: number | null },
): Promise<InitialDataResponse> =>
  client.get<InitialDataResponse>(apiPaths.initialData, { query: { job_id: jobId ?? '' } });
