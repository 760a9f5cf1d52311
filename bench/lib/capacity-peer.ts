import {
  capacityToken,
  conversationIdOf,
  userIdOf,
  type CapacityPopulation,
} from '../../test-support/capacity-population.js';
import type { PeerFigures } from './capacity-figures.js';
import type { ClientSpec, ConversationSpec } from './delivery-client-worker.js';
import { runDeliveryPhase } from './delivery.js';
import { spawnWorker, type WorkerHandle } from './spawn.js';

export interface PeerStepRequest {
  /** Connected users, as many as the step has (the first `users` of the population). */
  users: number;
  /** Sends per second: the step's send rate. */
  rate: number;
  seconds: number;
  warmupSeconds: number;
}

export interface CapacityPeer {
  /**
   * The same delivery on the Socket.IO peer at one step: `users` connected clients (one room per
   * user), sends at `rate` through its POST /send (an insert into the step's database, then an
   * emit to both parties' rooms but the sender's socket), send → ChatMessage at the receiver.
   */
  runStep: (request: PeerStepRequest) => Promise<PeerFigures>;
  stop: () => Promise<void>;
}

/**
 * Conversations whose both parties are among the first `users`, at most one per user (so sends
 * spread over as many receivers as the step has), alternating sides as the app's users do.
 */
const activePairs = (
  population: CapacityPopulation,
  users: number,
  tokenSecret: string,
): ConversationSpec[] => {
  const taken = new Uint8Array(users);
  const pairs: ConversationSpec[] = [];
  const party = (index: number) => {
    const id = userIdOf(index);
    return { id, token: capacityToken(tokenSecret, id) };
  };
  for (let c = 0; c < population.conversationCandidate.length; c += 1) {
    const candidate = population.conversationCandidate[c]!;
    const company = population.conversationCompany[c]!;
    if (candidate >= users || company >= users || taken[candidate] || taken[company]) continue;
    taken[candidate] = 1;
    taken[company] = 1;
    pairs.push({
      id: conversationIdOf(c),
      jobId: population.conversationJob[c]!,
      a: party(candidate),
      b: party(company),
    });
  }
  return pairs;
};

export interface PeerProcesses {
  peer: WorkerHandle;
  clients: WorkerHandle;
}

/** The peer's server and client processes (started ahead: each start is a second or more of tsx). */
export const spawnPeerProcesses = async (): Promise<PeerProcesses | null> => {
  const [peer, clients] = await Promise.all([
    spawnWorker('socketio-peer.ts', { deadlineMs: 900_000 }),
    spawnWorker('delivery-client-worker.ts', { deadlineMs: 900_000 }),
  ]);
  return { peer, clients };
};

/**
 * Starts the peer on `databaseUrl` in the given processes (they end with `stop`; stop before the
 * database is dropped). The peer serves every step of a run.
 */
export const startCapacityPeer = async (
  processes: PeerProcesses,
  databaseUrl: string,
  population: CapacityPopulation,
  tokenSecret: string,
  log: (message: string) => void,
): Promise<CapacityPeer> => {
  const { peer, clients } = processes;
  const stop = async () => {
    await Promise.all([peer.stop(), clients.stop()]);
  };
  try {
    const { port } = await peer.call<{ port: number }>('listen', { url: databaseUrl });
    const base = `http://127.0.0.1:${port}`;
    return {
      runStep: async ({ users, rate, seconds, warmupSeconds }) => {
        const specs: ClientSpec[] = Array.from({ length: users }, (_, index) => {
          const id = userIdOf(index);
          return { userId: id, token: capacityToken(tokenSecret, id), wsUrl: base };
        });
        const conversations = activePairs(population, users, tokenSecret);
        const phase = await runDeliveryPhase(clients, {
          clients: specs,
          mode: 'socketio',
          httpUrl: base,
          conversations,
          direction: 'alternate',
          rate,
          seconds,
          warmupSeconds,
          log: (message) => log(`  Socket.IO peer:${message}`),
        });
        return {
          users: phase.connect.connected,
          rate,
          sent: phase.measured.ok,
          delivered: phase.measured.delivered,
          lost: phase.measured.lost,
          p50: phase.latency.p50,
          p99: phase.latency.p99,
          max: phase.latency.max,
        };
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
};
