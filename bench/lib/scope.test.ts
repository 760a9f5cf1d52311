import { describe, expect, it } from 'vitest';
import { assertServerUp } from './scope.js';
import type { BenchServer } from './server.js';

const server = (ended: string | null) =>
  ({ ended: () => ended, output: () => 'listening…\nFATAL: out of memory' }) as BenchServer;

describe('assertServerUp', () => {
  it('passes while the server process runs', () => {
    expect(() => assertServerUp(server(null))).not.toThrow();
  });

  it('fails the run once the server process ended by itself, with how and its last output', () => {
    expect(() => assertServerUp(server('killed by SIGKILL'))).toThrow(
      /the server process killed by SIGKILL during the run:\nlistening…\nFATAL: out of memory/,
    );
  });
});
