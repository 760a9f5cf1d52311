import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { safeEqual } from '../lib/crypto.js';
import { CloseCode, MIN_PROTOCOL_VERSION, encodeError } from './protocol.js';

/** The websocket path prefix: `/app/{key}`. */
export const SOCKET_PATH_PREFIX = '/app/';
/** After sending a close frame, how long the peer has to answer before the socket is destroyed. */
export const CLOSE_GRACE_MS = 3_000;

/** Answers an upgrade request with a plain HTTP error and drops the socket. */
export const rejectUpgrade = (socket: Duplex, status: number, statusText: string): void => {
  socket.on('error', () => socket.destroy());
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = `${statusText}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${statusText}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.once('finish', () => socket.destroy());
  setTimeout(() => socket.destroy(), 1_000).unref();
};

export const normalizeOrigin = (origin: string): string =>
  origin.trim().replace(/\/+$/, '').toLowerCase();

/** Refuses an upgraded socket: an error frame, a close, destroyed if the peer does not answer. */
export const refuseSocket = (ws: WebSocket, code: number, message: string): void => {
  ws.send(encodeError(code, message));
  ws.close(code, message);
  setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
};

/**
 * The handshake's checks of the app key and the protocol version: the close code and message to
 * refuse the socket with, or undefined when both pass.
 */
export const handshakeRefusal = (
  appKey: string,
  query: URLSearchParams,
  key: string,
): { code: number; message: string } | undefined => {
  if (!safeEqual(appKey, key)) {
    return { code: CloseCode.ApplicationDoesNotExist, message: 'Application does not exist' };
  }
  const protocol = query.get('protocol');
  if (
    protocol !== null &&
    !(/^\d{1,3}$/.test(protocol) && Number(protocol) >= MIN_PROTOCOL_VERSION)
  ) {
    return { code: CloseCode.UnsupportedProtocolVersion, message: 'Unsupported protocol version' };
  }
  return undefined;
};
