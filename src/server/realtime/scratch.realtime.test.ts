import PusherModule from 'pusher-js';
import { it } from 'vitest';
import { pusherJsClient, startInstance, subscribed } from './test-kit.js';

for (const variant of ['sockets-first']) {
it('debug reconnect ' + variant, async () => {
  const first = await startInstance();
  const pusher = pusherJsClient(first, (s, c) => first.realtime.authorizeChannel(s, c));
  const t0 = Date.now();
  pusher.connection.bind('state_change', (s: any) => console.log(variant, Date.now() - t0, 'state', s.previous, '->', s.current));
  const channel = pusher.subscribe('private-chat.3');
  await subscribed(channel);
  if (variant === 'stop-listening-first') first.app.server.close();
  await first.close();
  console.log(Date.now() - t0, 'closed first');
  await new Promise((r) => setTimeout(r, 200));
  const second = await startInstance({ ...first.options, port: first.port });
  console.log(Date.now() - t0, 'second up');
  await subscribed(channel, 'x', 55000).catch((e) => console.log('fail', e));
  console.log(variant, Date.now() - t0, 'resubscribed');
  pusher.disconnect();
  await second.close();
}, 60000);
}
