import { deliveryChecks, deliveryScenario, type DeliverySetup } from '../lib/delivery.js';
import { atMost, exactly, info, latencyRows } from '../lib/types.js';

const SIZES = {
  tiny: { pairs: 10, rate: 20, seconds: 1, warmupSeconds: 0.5 },
  full: { pairs: 1000, rate: 200, seconds: 25, warmupSeconds: 3 },
};
const SETUP: DeliverySetup = { dialect: 'sqlite', label: 'deliver', direction: 'alternate' };

/** Rounds a ÷ b to two decimals; null when b is 0 (nothing measured). */
const ratioOf = (a: number, b: number): number | null =>
  b > 0 ? Math.round((a / b) * 100) / 100 : null;

/**
 * 2 × pairs connected clients in `pairs` two-person conversations; sends at a fixed rate through
 * POST /user/send/message (alternating direction, X-Socket-ID of the sender's socket); time from
 * the send to ChatMessage at the receiver. Then the same harness against a bare ws relay (the
 * floor), and against a Socket.IO peer (what a Node team would write instead) on the same database.
 */
export const sendToDeliver = deliveryScenario(SIZES, SETUP, {
  name: 'send-to-deliver',
  title: 'Send → ChatMessage at the receiver (SQLite), against a raw ws relay and a Socket.IO peer',
  run: async ({ config, log, scope, bench, pairs, runPhase, runOnServer }) => {
    log(`server: ${pairs.length * 2} clients, ${config.rate} sends/s for ${config.seconds} s`);
    const app = await runOnServer(scope);

    log('raw ws relay baseline');
    const relay = await scope.phase(async (relayScope) => {
      const { port } = await relayScope.listening('ws-relay.ts', null, 300_000);
      return runPhase({
        mode: 'relay',
        wsUrlOf: (user) => `ws://127.0.0.1:${port}/?id=${user.id}`,
      });
    });

    // Our server is stopped by now: the peer inserts into the same seeded SQLite file.
    log('Socket.IO peer');
    const peer = await scope.phase(async (peerScope) => {
      const { port } = await peerScope.listening('socketio-peer.ts', { url: bench.url }, 300_000);
      const peerUrl = `http://127.0.0.1:${port}`;
      return runPhase({ mode: 'socketio', httpUrl: peerUrl, wsUrlOf: () => peerUrl });
    });

    const m = app.measured;
    const pm = peer.measured;
    const rows = [
      info('connected clients', app.connect.connected, '', `${pairs.length} conversations`),
      info('sends (after warm-up)', m.attempted, '', `${config.rate}/s for ${config.seconds} s`),
      atMost('send → ChatMessage p50', app.latency.p50, 5, 'ms'),
      atMost('send → ChatMessage p99', app.latency.p99, 20, 'ms', `max ${app.latency.max} ms`),
      exactly('sends refused or failed', m.failed, 0),
      exactly('lost (accepted, never delivered)', m.lost, 0),
      exactly('doubled at the receiver', m.duplicates, 0),
      exactly("copies at the sender's excluded socket", m.echoes + m.misdelivered, 0),
      info('send call response p99', app.response.p99, 'ms'),
      info(
        'server CPU per send',
        app.serverCpuSeconds !== undefined && m.ok > 0
          ? Math.round(((app.serverCpuSeconds * 1000) / m.ok) * 1000) / 1000
          : null,
        'ms',
        'the server process over the measured sends and their deliveries to both parties',
      ),
      ...latencyRows(
        'raw ws relay',
        relay.latency,
        `same clients, same rate; lost ${relay.measured.lost}`,
      ),
      atMost('p99 ÷ raw ws relay p99', ratioOf(app.latency.p99, relay.latency.p99), 2, '×'),
      ...latencyRows(
        'Socket.IO peer',
        peer.latency,
        `same clients, same rate; lost ${pm.lost}, failed ${pm.failed}`,
      ),
      info('p50 ÷ Socket.IO peer p50', ratioOf(app.latency.p50, peer.latency.p50), '×'),
      atMost('p99 ÷ Socket.IO peer p99', ratioOf(app.latency.p99, peer.latency.p99), 1, '×'),
      exactly('Socket.IO peer: sends refused or failed', pm.failed, 0),
      exactly('Socket.IO peer: lost', pm.lost, 0),
      exactly('Socket.IO peer: doubled at the receiver', pm.duplicates, 0),
    ];
    const checks = {
      clients: app.connect.connected,
      expectedClients: pairs.length * 2,
      ...deliveryChecks(m),
      relaySent: relay.measured.ok,
      relayDelivered: relay.measured.delivered,
      relayDuplicates: relay.measured.duplicates,
      peerClients: peer.connect.connected,
      ...deliveryChecks(pm, 'peer'),
    };
    const notes = [
      `Open loop: sends are fired on schedule whatever the responses; latency is taken from the send call to the frame's arrival, in one client process (${pairs.length * 2} sockets), recorded in an HDR histogram (µs).`,
      `The relay is a bare \`ws\` server forwarding \`{to, chatMessage}\` as a ChatMessage frame: no HTTP, no database, no auth.`,
      `The Socket.IO peer is bare \`node:http\` with a \`socket.io\` server attached (websocket transport only, no per-message deflate) and a room per user: \`POST /send\` does the same single insert into \`chats\` as the raw insert baseline, then emits ChatMessage to the rooms of both parties except the X-Socket-ID socket. No auth, validation, transaction or outbox; the same clients (\`socket.io-client\`), rate and database file.`,
    ];
    if (m.errors.length > 0) notes.push(`send errors: ${m.errors.slice(0, 3).join('; ')}`);
    if (pm.errors.length > 0)
      notes.push(`Socket.IO peer send errors: ${pm.errors.slice(0, 3).join('; ')}`);
    return { rows, checks, notes };
  },
});
