/** The part of autocannon's API the harness uses (the package ships no types). */
declare module 'autocannon' {
  export interface AutocannonRequestData {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }
  export interface AutocannonRequest extends AutocannonRequestData {
    setupRequest?: (
      request: AutocannonRequestData,
      context: Record<string, unknown>,
    ) => AutocannonRequestData | null;
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }
  export interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: AutocannonRequest[];
    overallRate?: number;
    timeout?: number;
    pipelining?: number;
    excludeErrorStats?: boolean;
  }
  export interface AutocannonLatency {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
    totalCount: number;
  }
  export interface AutocannonResult {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    '4xx': number;
    '5xx': number;
    latency: AutocannonLatency;
    requests: { average: number; total: number };
    statusCodeStats: Record<string, { count: number }>;
  }
  function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
  export default autocannon;
}
