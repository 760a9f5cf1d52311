/**
 * What the modules need of the live channel: one publish. Free of Fastify and of any transport, so
 * that services can depend on it (the embedded server, Redis fan-out and a hosted Pusher all
 * implement it; see broadcaster.ts).
 */
export interface Broadcaster {
  /**
   * Publish one event to channels; exceptSocketId excludes that socket (X-Socket-ID of the sender).
   * Resolves after handing off (in-process delivery or Redis publish or HTTP trigger); rejects when
   * the hand-off failed (Redis or the hosted service unreachable).
   * `data` that is a string is delivered as is; anything else is serialized as JSON.
   */
  publish(channels: string[], event: string, data: unknown, exceptSocketId?: string): Promise<void>;
}
