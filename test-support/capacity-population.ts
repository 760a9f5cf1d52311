import { createHmac } from 'node:crypto';

/**
 * The population of the capacity benchmark: recruiters holding many conversations and candidates
 * holding a few, built by a pure function of its options (a seeded PRNG), so the seeding process and
 * every load-generator process derive the same users, conversations and tokens without shipping
 * hundreds of thousands of rows over IPC.
 *
 * Users are laid out in one order that interleaves the roles in proportion (a recruiter whenever the
 * candidates placed so far hold more conversation ends than the recruiters), and each candidate's
 * partners are drawn from the first `partnerPool` recruiters that still have room: a prefix of the
 * order (the first N users, one benchmark step) then holds both roles in the final ratio and most
 * of its users' partners, as a growing site would.
 */

/** mulberry32: small, fast, good enough for load schedules; the same seed gives the same stream. */
export const createRandom = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};

/** A whole number in [min, max], uniformly. */
export const uniformInt = (random: () => number, min: number, max: number): number =>
  min + Math.floor(random() * (max - min + 1));

export interface CapacityPopulationOptions {
  users: number;
  seed: number;
  /** Conversations per recruiter, drawn uniformly from [min, max]. */
  recruiterConversations: [number, number];
  /** Conversations per candidate, drawn uniformly from [min, max]. */
  candidateConversations: [number, number];
  /** Recruiters a candidate's partners are drawn from (≥ the candidates' maximum). */
  partnerPool: number;
  messagesPerConversation: number;
}

export interface CapacityPopulation {
  options: CapacityPopulationOptions;
  users: number;
  recruiters: number;
  candidates: number;
  /** 1 for a recruiter (role `company`), by user index; user id = index + 1. */
  recruiter: Uint8Array;
  /** Conversation c (id c + 1): its candidate's and company's user index, and its job id. */
  conversationCandidate: Int32Array;
  conversationCompany: Int32Array;
  conversationJob: Int32Array;
  /** Conversations of user u: `userConversations[userStart[u] … userStart[u + 1])` (conversation indexes). */
  userStart: Int32Array;
  userConversations: Int32Array;
  /** Job j (id j + 1) belongs to the recruiter with this user index. */
  jobCompany: Int32Array;
  /** Last activity of each conversation (epoch ms), spread over the 90 days before BASE_TIME. */
  conversationActivity: Float64Array;
}

export const userIdOf = (index: number): number => index + 1;
export const conversationIdOf = (index: number): number => index + 1;

const BASE_TIME = Date.parse('2026-11-01T00:00:00.000Z');
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Builds the population (≈ 0.1 s for 20,000 users and 330,000 conversations). */
export const buildCapacityPopulation = (options: CapacityPopulationOptions): CapacityPopulation => {
  const random = createRandom(options.seed);
  const [rMin, rMax] = options.recruiterConversations;
  const [cMin, cMax] = options.candidateConversations;
  const n = options.users;
  const recruiter = new Uint8Array(n);
  const degree = new Int32Array(n);
  // Interleave: a recruiter whenever the candidates so far hold more conversation ends than the
  // recruiters, so every prefix has the roles in the ratio that makes the two sums agree.
  let recruiterEnds = 0;
  let candidateEnds = 0;
  const recruiterOrder: number[] = [];
  for (let i = 0; i < n; i += 1) {
    if (recruiterEnds <= candidateEnds) {
      recruiter[i] = 1;
      degree[i] = uniformInt(random, rMin, rMax);
      recruiterEnds += degree[i]!;
      recruiterOrder.push(i);
    } else {
      degree[i] = uniformInt(random, cMin, cMax);
      candidateEnds += degree[i]!;
    }
  }

  // Jobs: one per started 250 conversations of a recruiter.
  const jobStart = new Int32Array(n + 1);
  const jobCompanyList: number[] = [];
  for (let i = 0; i < n; i += 1) {
    jobStart[i] = jobCompanyList.length;
    if (recruiter[i]) {
      const jobs = 1 + Math.floor(degree[i]! / 250);
      for (let j = 0; j < jobs; j += 1) jobCompanyList.push(i);
    }
  }
  jobStart[n] = jobCompanyList.length;

  // Pair each candidate with distinct recruiters from the pool of the first open ones.
  const remaining = Int32Array.from(degree);
  const pool: number[] = [];
  let nextRecruiter = 0;
  const refill = () => {
    while (pool.length < options.partnerPool && nextRecruiter < recruiterOrder.length)
      pool.push(recruiterOrder[nextRecruiter++]!);
  };
  const candidates: number[] = [];
  const companies: number[] = [];
  const jobsOf: number[] = [];
  for (let i = 0; i < n; i += 1) {
    if (recruiter[i]) continue;
    refill();
    const want = Math.min(degree[i]!, pool.length);
    // Partial Fisher–Yates over the pool: `want` distinct recruiters.
    for (let k = 0; k < want; k += 1) {
      const pick = k + Math.floor(random() * (pool.length - k));
      [pool[k], pool[pick]] = [pool[pick]!, pool[k]!];
      const company = pool[k]!;
      const jobs = jobStart[company + 1]! - jobStart[company]!;
      candidates.push(i);
      companies.push(company);
      jobsOf.push(jobStart[company]! + Math.floor(random() * jobs) + 1);
      remaining[company] = remaining[company]! - 1;
    }
    for (let k = pool.length - 1; k >= 0; k -= 1) if (remaining[pool[k]!]! <= 0) pool.splice(k, 1);
  }

  const conversations = candidates.length;
  const conversationCandidate = Int32Array.from(candidates);
  const conversationCompany = Int32Array.from(companies);
  const conversationJob = Int32Array.from(jobsOf);
  const conversationActivity = new Float64Array(conversations);
  for (let c = 0; c < conversations; c += 1)
    // at hour ≥ messagesPerConversation and minute ≤ 58 of its day: the messages before it (an hour
    // apart) and their seen times (a minute after) are then the same text with other digits
    conversationActivity[c] =
      BASE_TIME -
      (1 + Math.floor(random() * 90)) * DAY +
      uniformInt(random, Math.min(23, options.messagesPerConversation), 23) * HOUR +
      uniformInt(random, 0, 58) * MINUTE +
      Math.floor(random() * MINUTE);

  const count = new Int32Array(n);
  for (let c = 0; c < conversations; c += 1) {
    count[conversationCandidate[c]!] = count[conversationCandidate[c]!]! + 1;
    count[conversationCompany[c]!] = count[conversationCompany[c]!]! + 1;
  }
  const userStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i += 1) userStart[i + 1] = userStart[i]! + count[i]!;
  const fill = Int32Array.from(userStart.subarray(0, n));
  const userConversations = new Int32Array(conversations * 2);
  for (let c = 0; c < conversations; c += 1) {
    const a = conversationCandidate[c]!;
    const b = conversationCompany[c]!;
    userConversations[fill[a]!] = c;
    fill[a] = fill[a]! + 1;
    userConversations[fill[b]!] = c;
    fill[b] = fill[b]! + 1;
  }

  return {
    options,
    users: n,
    recruiters: recruiterOrder.length,
    candidates: n - recruiterOrder.length,
    recruiter,
    conversationCandidate,
    conversationCompany,
    conversationJob,
    userStart,
    userConversations,
    jobCompany: Int32Array.from(jobCompanyList),
    conversationActivity,
  };
};

/** The user's personal access token, derived from a per-run secret (the database holds its sha256). */
export const capacityToken = (secret: string, userId: number): string =>
  `cap${userId}.${createHmac('sha256', secret).update(String(userId)).digest('base64url').slice(0, 32)}`;

/** How many conversations user `index` holds. */
export const conversationCount = (population: CapacityPopulation, index: number): number =>
  population.userStart[index + 1]! - population.userStart[index]!;
