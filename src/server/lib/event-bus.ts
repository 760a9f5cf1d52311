/**
 * A small typed in-process event bus: a module announces what happened (`emit`), the modules that
 * care subscribe (`on`) when the service graph is built. The emitter waits for every handler, in
 * the order they subscribed, and a handler's failure reaches the emitter (as a direct call would).
 * Events stay inside this process: what other instances must hear goes through Redis.
 */
export interface EventBus<Events extends object> {
  on<Name extends keyof Events>(
    name: Name,
    handler: (event: Events[Name]) => Promise<void> | void,
  ): void;
  emit<Name extends keyof Events>(name: Name, event: Events[Name]): Promise<void>;
}

export const createEventBus = <Events extends object>(): EventBus<Events> => {
  const handlers = new Map<keyof Events, ((event: never) => Promise<void> | void)[]>();
  return {
    on(name, handler) {
      handlers.set(name, [...(handlers.get(name) ?? []), handler]);
    },
    async emit(name, event) {
      for (const handler of handlers.get(name) ?? []) await handler(event as never);
    },
  };
};
