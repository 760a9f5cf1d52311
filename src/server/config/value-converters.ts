import type { Config, TrustProxy } from './config-shape.js';

/*
 * The settings that are more than their zod schema: each converter turns the text into the value
 * `Config` holds, or throws the one plain sentence that says what is wrong.
 */

export const toLoginUrl = (value: string | undefined): URL | undefined => {
  if (!value) return undefined;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new Error(
      `LOGIN_URL must be an absolute http(s) address of the host's sign-in page (https://jobs.example/login), not ${JSON.stringify(value)}.`,
    );
  return url;
};

export const toLogoUrl = (value: string | undefined): string | undefined => {
  if (!value) return undefined;
  if (/^\/(?![/\\])/.test(value)) return value;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || url.protocol !== 'https:')
    throw new Error(
      `BRAND_LOGO_URL must be an https: address (https://jobs.example/logo.svg) or a path of this server (/logo.svg), not ${JSON.stringify(value)}.`,
    );
  return url.href;
};

/** Shortest integration key / sign-in secret accepted: a guessable secret is refused at start. */
const MIN_SECRET_BYTES = 32;

export const toIntegrationKeys = (value: string | undefined): string[] => {
  const keys = (value ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  for (const key of keys) {
    if (Buffer.byteLength(key) < MIN_SECRET_BYTES)
      throw new Error(
        `Each INTEGRATION_KEYS entry must be at least ${MIN_SECRET_BYTES} bytes (for example \`openssl rand -hex 32\`).`,
      );
  }
  return keys;
};

export const toSsoSecret = (value: string | undefined): string | undefined => {
  if (!value) return undefined;
  if (Buffer.byteLength(value) < MIN_SECRET_BYTES)
    throw new Error(`SSO_SECRET must be at least ${MIN_SECRET_BYTES} bytes.`);
  return value;
};

/** The default of IMAGE_ORIGINS: photos from any https address (a host's CDN may be anywhere). */
export const ANY_HTTPS_IMAGE = 'https:';

export const toImageSources = (value: string | undefined): string[] => {
  if (value === undefined || value.trim() === '') return [ANY_HTTPS_IMAGE];
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      if (entry === ANY_HTTPS_IMAGE) return entry;
      // An origin and nothing else: no path, no wildcard, nothing that could end the directive.
      const url = URL.canParse(entry) ? new URL(entry) : undefined;
      if (
        !url ||
        (url.protocol !== 'https:' && url.protocol !== 'http:') ||
        url.origin === 'null' ||
        entry.replace(/\/$/, '') !== url.origin
      )
        throw new Error(
          `IMAGE_ORIGINS: ${JSON.stringify(entry)} is not an origin (https://cdn.example.com) or "https:".`,
        );
      return url.origin;
    });
};

export const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1']);

export const toEmbedOrigins = (value: string | undefined): string[] => {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const origins = entries.map((entry) => {
    // An origin and nothing else: scheme://host[:port], no path, query, wildcard or user.
    const url = URL.canParse(entry) ? new URL(entry) : undefined;
    if (
      !url ||
      url.origin === 'null' ||
      !/^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/.test(url.hostname) ||
      entry.replace(/\/$/, '') !== url.origin
    )
      throw new Error(
        `EMBED_ORIGINS: ${JSON.stringify(entry)} is not an origin: write scheme://host[:port] with no path (https://jobs.example).`,
      );
    if (
      url.protocol !== 'https:' &&
      !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))
    )
      throw new Error(
        `EMBED_ORIGINS: ${JSON.stringify(entry)} must use https (http only for localhost or 127.0.0.1).`,
      );
    return url.origin;
  });
  return [...new Set(origins)];
};

export const toSmtpUrl = (value: string | undefined): URL | undefined => {
  if (!value) return undefined;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname)
    throw new Error('SMTP_URL must look like smtp://user:pass@host:port or smtps://…');
  return url;
};

/** Standard Webhooks secrets are `whsec_` and the base64 of 24 to 64 random bytes. */
const MIN_WEBHOOK_SECRET_BYTES = 24;

export const toWebhook = (
  url: string | undefined,
  secret: string | undefined,
): Config['webhook'] | undefined => {
  if (!url) return undefined;
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new Error('WEBHOOK_URL must be an http(s) address.');
  const encoded = secret?.startsWith('whsec_') ? secret.slice('whsec_'.length) : undefined;
  if (
    encoded === undefined ||
    !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) ||
    Buffer.from(encoded, 'base64').length < MIN_WEBHOOK_SECRET_BYTES
  )
    throw new Error(
      `WEBHOOK_SECRET must be set with WEBHOOK_URL: "whsec_" and the base64 of at least ${MIN_WEBHOOK_SECRET_BYTES} random bytes (for example \`echo whsec_$(openssl rand -base64 32)\`).`,
    );
  return { url: parsed, secret: secret as string };
};

export const toSeedMode = (value: string): Config['demoSeed'] => {
  if (value === 'on' || value === 'true' || value === '1') return 'on';
  if (value === 'off' || value === 'false' || value === '0') return 'off';
  return 'auto';
};

export const toTrustProxy = (value: string | undefined): TrustProxy => {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false' || text === '0' || text === 'off') return false;
  if (text === 'true' || text === 'on') return true;
  // Fastify 5 ignores hop counts (it cannot tell a proxy from a client that way) and trusts nobody.
  if (/^\d+$/.test(text))
    throw new Error(
      'TRUST_PROXY takes true or the proxies’ addresses / CIDRs (e.g. 10.0.0.0/8), not a hop count.',
    );
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
};
