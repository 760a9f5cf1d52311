import { loadConfig } from '../src/server/config.js';
import { conversationWith } from './support/clients.js';
import { freshPostgres, postgresUrlFor } from './support/databases.js';
import { signInAll } from './support/scenario.js';
import { startFaultServer, stopServer } from './support/servers.js';
import { TcpProxy } from './support/tcp-proxy.js';
test('frozen pg', async () => {
  const db = await freshPostgres();
  const proxy = await TcpProxy.start(5432);
  const server = await startFaultServer({ databaseUrl: postgresUrlFor(db.name!, proxy.port) });
  try {
    const { candidate, company } = await signInAll(server.url, ['candidate', 'company'] as const);
    const conv = await conversationWith(candidate, company.userId);
    await Promise.all([1,2,3,4].map(() => candidate.call('GET', '/load/messengers/initial/data')));
    await proxy.freeze();
    const t = async (name: string, f: () => Promise<Response>) => { const s = Date.now(); const r = await f(); console.log(name, r.status, Date.now() - s, 'ms'); };
    await Promise.all([
      t('initial', () => candidate.call('GET', '/load/messengers/initial/data')),
      t('get', () => candidate.call('POST', '/user/get/message', { receiver_id: conv.receiverId, job_id: conv.jobId })),
      t('send', () => candidate.call('POST', '/user/send/message', { receiver_id: conv.receiverId, messenger_user: conv.id, job_id: conv.jobId, message: 'x' })),
      t('archive', () => candidate.call('POST', `/user/messenger/${conv.id}/archive`)),
    ]);
    await t('initial2', () => candidate.call('GET', '/load/messengers/initial/data'));
    await proxy.up();
    await t('after up', () => candidate.call('GET', '/load/messengers/initial/data'));
    await t('after up2', () => candidate.call('GET', '/load/messengers/initial/data'));
  } finally { await stopServer(server); await proxy.close(); await db.drop(); }
}, 120000);
