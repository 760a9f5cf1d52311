import type { RawData } from 'ws';
import type { ChannelSubscriptions } from './channel-subscriptions.js';
import type { Connection, ShutdownConnection } from './connection.js';
import {
  CloseCode,
  ErrorCode,
  MAX_DROPPED_FRAMES_IN_ROW,
  PONG_FRAME,
  decodeFrameData,
  encodeError,
  incomingFrameSchema,
  unsubscribeDataSchema,
} from './protocol.js';
import type { RealtimeLogger } from './types.js';

const rawToString = (data: RawData): string => {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
};

/** The frames a client sends: the frame rate, parsing, and each event to its handler. */
export class IncomingFrames {
  constructor(
    private readonly subscriptions: ChannelSubscriptions,
    private readonly shutdown: ShutdownConnection,
    private readonly logger: RealtimeLogger | undefined,
  ) {}

  onMessage(conn: Connection, data: RawData, isBinary: boolean): void {
    conn.markAlive();
    if (conn.closed) return;
    // Over the rate, a frame is dropped before it is read: a flood costs no parsing.
    if (!conn.frames.take()) return this.dropFrame(conn);
    if (isBinary)
      return conn.send(encodeError(ErrorCode.InvalidMessage, 'Binary frames are not supported.'));
    let json: unknown;
    try {
      json = JSON.parse(rawToString(data));
    } catch {
      return conn.send(encodeError(ErrorCode.InvalidMessage, 'The frame is not valid JSON.'));
    }
    const frame = incomingFrameSchema.safeParse(json);
    if (!frame.success)
      return conn.send(encodeError(ErrorCode.InvalidMessage, 'The frame is not a Pusher event.'));
    const { event } = frame.data;
    switch (event) {
      case 'pusher:ping':
        return conn.send(PONG_FRAME);
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        return this.subscriptions.subscribe(conn, decodeFrameData(frame.data.data));
      case 'pusher:unsubscribe': {
        const parsed = unsubscribeDataSchema.safeParse(decodeFrameData(frame.data.data));
        if (!parsed.success)
          return conn.send(encodeError(ErrorCode.InvalidMessage, 'Invalid unsubscribe data.'));
        if (conn.channels.has(parsed.data.channel))
          this.subscriptions.leave(conn, parsed.data.channel);
        return;
      }
      case 'pusher:signin':
        return this.subscriptions.signin(conn, decodeFrameData(frame.data.data));
      default:
        break;
    }
    if (event.startsWith('client-')) {
      return conn.send(
        encodeError(
          ErrorCode.ClientEventRejected,
          'Client events are not enabled: send messages through the HTTP API.',
        ),
      );
    }
    conn.send(encodeError(ErrorCode.InvalidMessage, 'Unsupported event.'));
  }

  /** The first frame dropped in a row is answered (4301); a long run of them closes the socket (4100). */
  private dropFrame(conn: Connection): void {
    const dropped = conn.frames.droppedInRow;
    if (dropped === 1) {
      conn.send(encodeError(ErrorCode.RateLimited, 'Client event rate limit reached'));
    } else if (dropped >= MAX_DROPPED_FRAMES_IN_ROW) {
      this.logger?.info(
        { socketId: conn.id, address: conn.address },
        'realtime: websocket closed for flooding frames',
      );
      conn.send(encodeError(CloseCode.OverCapacity, 'Over capacity: too many frames.'));
      this.shutdown(conn, CloseCode.OverCapacity, 'Over capacity');
    }
  }
}
