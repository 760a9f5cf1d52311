import { createHash, createHmac } from 'node:crypto';

export interface PusherCredentials {
  appId: string;
  key: string;
  secret: string;
}

/**
 * A Pusher HTTP API request, signed as the spec says (auth_version 1.0): the query carries
 * auth_key, auth_timestamp, auth_version, body_md5 and auth_signature = HMAC-SHA256(secret,
 * "POST\n{path}\n{sorted query}"). Returns the path with its query, for tampering before sending.
 */
export const signTrigger = (
  credentials: PusherCredentials,
  body: string,
  options: { timestamp?: number; path?: string } = {},
): { path: string; body: string } => {
  const path = options.path ?? `/apps/${credentials.appId}/events`;
  const params: Record<string, string> = {
    auth_key: credentials.key,
    auth_timestamp: String(options.timestamp ?? Math.floor(Date.now() / 1000)),
    auth_version: '1.0',
    body_md5: createHash('md5').update(body).digest('hex'),
  };
  const query = Object.keys(params)
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
  const signature = createHmac('sha256', credentials.secret)
    .update(`POST\n${path}\n${query}`)
    .digest('hex');
  return { path: `${path}?${query}&auth_signature=${signature}`, body };
};

export const postTrigger = (
  baseUrl: string,
  request: { path: string; body: string },
): Promise<Response> =>
  fetch(`${baseUrl}${request.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: request.body,
  });
