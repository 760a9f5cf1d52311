import type { Embed } from '../hooks/use-embed.js';
import { createEmbedBridge } from './embed-bridge.js';
import { createEmbedSession } from './embed-session.js';
import { applyEmbedTheme } from './embed-theme.js';
import { readFrameParams } from './frame-params.js';

/**
 * The page in a host's frame (`?embed=…&host_origin=…`, read once at boot), or null: its mode
 * on <html> (`data-embed`, for the style sheet) and its theme, both before the first render; the
 * line to the host; the session whose end (any 401) tells the host `signin-required`.
 */
export const startEmbed = (search: string, doc: Document = document): Embed | null => {
  const params = readFrameParams(search);
  if (!params) return null;
  doc.documentElement.dataset.embed = params.mode;
  applyEmbedTheme(params.theme, doc);
  const bridge = createEmbedBridge(params.hostOrigin);
  return { params, bridge, session: createEmbedSession(bridge) };
};
