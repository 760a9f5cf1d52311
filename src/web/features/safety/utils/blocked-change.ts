/** A user was blocked (true) or unblocked (false) by the viewer: the caches that hold them show it. */
export type BlockedChange = (userId: number, blocked: boolean) => void;
