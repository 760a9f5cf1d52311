export interface ClusterAddress {
  nodes: { host: string; port: number }[];
  username?: string;
  password?: string;
  /** `rediss-cluster://`: every node over TLS. */
  tls: boolean;
}

/**
 * A Redis Cluster address: `redis-cluster://[user:password@]host:port,host:port` (any of its
 * nodes; the rest are found), or `rediss-cluster://…` for TLS. `undefined` for any other address.
 */
export const clusterAddressOf = (url: string): ClusterAddress | undefined => {
  const scheme = /^(rediss?)-cluster:\/\//.exec(url);
  if (!scheme) return undefined;
  const authority = url.slice(scheme[0].length).split('/')[0]!;
  const at = authority.lastIndexOf('@');
  const credentials = at < 0 ? undefined : authority.slice(0, at);
  const nodes = (at < 0 ? authority : authority.slice(at + 1))
    .split(',')
    .filter((node) => node.length > 0)
    .map((node) => {
      const colon = node.lastIndexOf(':');
      const host = colon < 0 ? node : node.slice(0, colon);
      const port = colon < 0 ? 6379 : Number(node.slice(colon + 1));
      if (host.length === 0 || !Number.isInteger(port) || port <= 0 || port > 65_535)
        throw new TypeError(`Invalid Redis Cluster node: ${JSON.stringify(node)}`);
      return { host, port };
    });
  if (nodes.length === 0)
    throw new TypeError('A redis-cluster:// address needs at least one node.');
  const address: ClusterAddress = { nodes, tls: scheme[1] === 'rediss' };
  if (credentials !== undefined) {
    const colon = credentials.indexOf(':');
    const username = decodeURIComponent(colon < 0 ? '' : credentials.slice(0, colon));
    const password = decodeURIComponent(colon < 0 ? credentials : credentials.slice(colon + 1));
    if (username) address.username = username;
    if (password) address.password = password;
  }
  return address;
};
