import { createConnectionCounter } from './connection-admission.js';

describe('counting live sockets against the limits', () => {
  it('admits up to the cap per address and in all, and admits again once one is released', () => {
    const counter = createConnectionCounter({ maxConnections: 3, maxConnectionsPerAddress: 2 });
    expect([counter.admit('a'), counter.admit('a'), counter.admit('a')]).toEqual([
      true,
      true,
      false,
    ]);
    expect(counter.admit('b')).toBe(true);
    expect(counter.admit('c')).toBe(false); // three in all
    counter.release('a');
    expect(counter.count()).toBe(2);
    expect(counter.admit('c')).toBe(true);
    counter.release('b', 5); // never below what was counted
    expect([counter.count('b'), counter.count()]).toEqual([0, 2]);
  });
});
