declare module 'vitest' {
  export interface ProvidedContext {
    database: 'sqlite' | 'postgres';
  }
}
export {};
