/**
 * What instances sharing one database tell each other: a task moved to another stage or ended
 * (progress followers and long polls anywhere wake), a task waits for a build (the builder gathers it), and which instance holds the build lease (one
 * builder at a time). One instance on SQLite is its own builder and hears only itself.
 */
export interface Coordination {
  /** This instance's name, as health and the lease show it. */
  readonly instance: string;
  /** Whether this instance holds the build lease now: false once it may have run out, even before the others took it. */
  readonly holdsLease: boolean;
  /** The lease a build started now swaps its site in under; undefined where only one instance runs. */
  leaseFence(): LeaseFence | undefined;
  /** Tells every instance, this one too, that a task ended. */
  announceTaskEnded(handle: string): Promise<void>;
  /** Tells every instance, this one too, that a task moved to another stage (its progress followers read it again). */
  announceTaskStage(handle: string): Promise<void>;
  /** Tells the builder, wherever it runs, that a task waits for a build. */
  announceTaskWaiting(handle: string): Promise<void>;
  /** Listens for ended tasks, wherever they ended; also for waiting tasks and lease changes of this instance. */
  listen(listeners: CoordinationListeners): void;
  /** The instance holding the build lease, or null while nobody does. */
  leaseHolder(): Promise<string | null>;
  /** Starts listening and competing for the lease. */
  start(): Promise<void>;
  /** Gives up the lease and stops listening. */
  close(): Promise<void>;
}

/** The lease a build was started under: its swap goes ahead only while that lease is still held (see swapUnderLease). */
export interface LeaseFence {
  connectionString: string;
  /** Which taking of the lease: each instance taking it counts one more. */
  term: number;
}

/** What an instance does when it hears from the others. */
export interface CoordinationListeners {
  taskEnded(handle: string): void;
  taskStageChanged(handle: string): void;
  /** Called only while this instance holds the lease. */
  taskWaiting(handle: string): void;
  /** Called when this instance takes the lease (true) or loses it (false). */
  leaseChanged(held: boolean): void;
}

/** Coordination of a lone instance (SQLite): it holds the lease from start and hears only itself. */
export function createLocalCoordination(instance: string): Coordination {
  let listeners: CoordinationListeners | undefined;
  let holdsLease = false;
  return {
    instance,
    get holdsLease() {
      return holdsLease;
    },
    async announceTaskEnded(handle) {
      listeners?.taskEnded(handle);
    },
    async announceTaskStage(handle) {
      listeners?.taskStageChanged(handle);
    },
    async announceTaskWaiting(handle) {
      if (holdsLease) listeners?.taskWaiting(handle);
    },
    listen(given) {
      listeners = given;
    },
    leaseFence: () => undefined,
    async leaseHolder() {
      return holdsLease ? instance : null;
    },
    async start() {
      holdsLease = true;
      listeners?.leaseChanged(true);
    },
    async close() {
      holdsLease = false;
    },
  };
}
