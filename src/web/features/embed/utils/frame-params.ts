import {
  EMBED_MODES,
  EMBED_SCHEMES,
  FRAME_PARAMS,
  type EmbedMode,
  type EmbedScheme,
} from '../../../../shared/embed-protocol.js';

/** What the embedded page's theme parameters ask for, each one valid or absent. */
export interface EmbedTheme {
  color?: string;
  scheme?: EmbedScheme;
  /** A CSS length (`8px`), 0 to 32 px. */
  radius?: string;
  fontFamily?: string;
}

/** The framed page's parameters (`/messages?embed=…&host_origin=…`), read once at boot. */
export interface FrameParams {
  mode: EmbedMode;
  /** The embedding page's origin: the only one the frame posts to and listens to. */
  hostOrigin: string;
  /** Conversation mode: the host's ids. */
  conversation: { company: string; candidate: string; job: string | null } | null;
  theme: EmbedTheme;
}

const RADIUS_MAX_PX = 32;
const FONT_PATTERN = /^[\p{L}\p{N} ,\-_'"]+$/u;

const isOneOf = <T extends string>(values: readonly T[], value: string | null): value is T =>
  value !== null && (values as readonly string[]).includes(value);

/** `8px`, `8` or `0` → `8px`/`0px`; anything else (or above 32 px) → undefined. */
export const parseRadius = (value: string | null): string | undefined => {
  const match = value === null ? null : /^(\d{1,2}(?:\.\d+)?)(px)?$/.exec(value.trim());
  if (!match) return undefined;
  const px = Number(match[1]);
  return px <= RADIUS_MAX_PX ? `${px}px` : undefined;
};

export const parseColor = (value: string | null): string | undefined =>
  value !== null && /^#[0-9a-f]{6}$/i.test(value) ? value.toLowerCase() : undefined;

export const parseFont = (value: string | null): string | undefined => {
  const font = value?.trim();
  return font && font.length <= 200 && FONT_PATTERN.test(font) ? font : undefined;
};

/** An origin as `location.origin` writes it (`https://jobs.example`), else null. */
const parseOrigin = (value: string | null): string | null => {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.origin !== 'null' && url.origin === value ? url.origin : null;
  } catch {
    return null;
  }
};

/**
 * The embedding parameters of the page's query, or null when the page is not embedded (no
 * `embed`, an unknown mode, or no valid `host_origin`: the server refuses those anyway). Invalid
 * theme values are dropped, never an error.
 */
export const readFrameParams = (search: string): FrameParams | null => {
  const params = new URLSearchParams(search);
  const mode = params.get(FRAME_PARAMS.embed);
  const hostOrigin = parseOrigin(params.get(FRAME_PARAMS.hostOrigin));
  if (!isOneOf(EMBED_MODES, mode) || !hostOrigin) return null;
  const company = params.get(FRAME_PARAMS.company)?.trim();
  const candidate = params.get(FRAME_PARAMS.candidate)?.trim();
  const job = params.get(FRAME_PARAMS.job)?.trim() || null;
  const scheme = params.get(FRAME_PARAMS.scheme);
  const theme: EmbedTheme = {
    color: parseColor(params.get(FRAME_PARAMS.color)),
    scheme: isOneOf(EMBED_SCHEMES, scheme) ? scheme : undefined,
    radius: parseRadius(params.get(FRAME_PARAMS.radius)),
    fontFamily: parseFont(params.get(FRAME_PARAMS.font)),
  };
  return {
    mode,
    hostOrigin,
    conversation:
      mode === 'conversation' && company && candidate ? { company, candidate, job } : null,
    theme: Object.fromEntries(Object.entries(theme).filter(([, value]) => value !== undefined)),
  };
};
