/**
 * The example job board on its own: `MESSENGER_URL`, `INTEGRATION_KEY`, `SSO_SECRET` and `PORT`
 * from the environment (`npm run example:host-site` starts a messenger and this together).
 * Run: MESSENGER_URL=http://127.0.0.1:3000 INTEGRATION_KEY=… SSO_SECRET=… PORT=4100 npx tsx examples/host-site/main.ts
 */
import { startHostSite } from './board.js';

const required = (name: string): string => {
  const value = process.env[name];
  if (!value) {
    console.error(
      `${name} is required (MESSENGER_URL, INTEGRATION_KEY, SSO_SECRET; PORT optional).`,
    );
    process.exit(2);
  }
  return value;
};

const site = await startHostSite({
  messengerUrl: required('MESSENGER_URL'),
  integrationKey: required('INTEGRATION_KEY'),
  ssoSecret: required('SSO_SECRET'),
  port: Number(process.env.PORT ?? '4100'),
});
console.log(`Harbour Jobs (the example board) is running at ${site.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    void site.close().then(() => process.exit(0));
  });
