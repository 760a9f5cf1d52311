/**
 * Whether one more live socket may open: at most `maxConnections` in all and
 * `maxConnectionsPerAddress` from one client address, counted over the whole instance (one process,
 * or every worker of a cluster: docs/realtime.md, "Limits").
 */
export interface ConnectionAdmission {
  /** Counts the socket and says yes, or says no (nothing counted). */
  admit(address: string): boolean | Promise<boolean>;
  /** A socket that was admitted from `address` has closed. */
  release(address: string): void;
}

export interface ConnectionLimits {
  maxConnections: number;
  maxConnectionsPerAddress: number;
}

/** The counts of one process, or of a cluster's primary for all its workers. */
export const createConnectionCounter = ({
  maxConnections,
  maxConnectionsPerAddress,
}: ConnectionLimits) => {
  const perAddress = new Map<string, number>();
  let total = 0;
  return {
    admit(address: string): boolean {
      const fromAddress = perAddress.get(address) ?? 0;
      if (total >= maxConnections || fromAddress >= maxConnectionsPerAddress) return false;
      perAddress.set(address, fromAddress + 1);
      total += 1;
      return true;
    },
    release(address: string, count = 1): void {
      const fromAddress = perAddress.get(address);
      if (fromAddress === undefined) return;
      const released = Math.min(count, fromAddress);
      if (fromAddress > released) perAddress.set(address, fromAddress - released);
      else perAddress.delete(address);
      total -= released;
    },
    /** Sockets counted now: in all, and from `address`. */
    count: (address?: string) => (address === undefined ? total : (perAddress.get(address) ?? 0)),
  } satisfies ConnectionAdmission & Record<string, unknown>;
};

export type ConnectionCounter = ReturnType<typeof createConnectionCounter>;
