import type { DemoUser } from './demo-mode.js';

/**
 * The demo's data besides its accounts (`demo-mode.ts`): more users, jobs, conversations,
 * applications and saved replies, seeded by `seed.ts`. Only the seeder reads it.
 */

export const EXTRA_USERS: DemoUser[] = [
  { key: 'cedar', email: 'cedar@example.com', role: 'company', name: 'Cedar Health' },
  { key: 'orbit', email: 'orbit@example.com', role: 'company', name: 'Orbit Finance' },
  { key: 'lina', email: 'lina@example.com', role: 'candidate', name: 'Lina Farouk' },
  { key: 'youssef', email: 'youssef@example.com', role: 'candidate', name: 'Youssef Nasser' },
  { key: 'maya', email: 'maya@example.com', role: 'candidate', name: 'Maya Chen' },
  { key: 'daniel', email: 'daniel@example.com', role: 'candidate', name: 'Daniel Okafor' },
];

export const JOBS = [
  {
    key: 'robotics',
    company: 'acme',
    title: 'Senior Robotics Engineer',
    status: 'active',
    days: 30,
  },
  {
    key: 'embedded',
    company: 'acme',
    title: 'Embedded Software Developer',
    status: 'active',
    days: 45,
  },
  { key: 'qa', company: 'acme', title: 'QA Technician', status: 'closed', days: -5 },
  { key: 'frontend', company: 'nile', title: 'Frontend Developer', status: 'inactive', days: -10 },
  {
    key: 'backend',
    company: 'nile',
    title: 'Backend Engineer (Node.js)',
    status: 'active',
    days: 20,
  },
  {
    key: 'coordinator',
    company: 'harbor',
    title: 'Logistics Coordinator',
    status: 'active',
    days: 25,
  },
  { key: 'nurse', company: 'cedar', title: 'Clinical Data Analyst', status: 'active', days: 15 },
  { key: 'analyst', company: 'orbit', title: 'Risk Analyst', status: 'active', days: 40 },
] as const;

/** [candidate, company, job|null, archivedBy, messages: [from, minutesAgo, text, seen]] */
type SeedMessage = [from: 'candidate' | 'company', minutesAgo: number, text: string, seen: boolean];
export const CONVERSATIONS: {
  candidate: string;
  company: string;
  job: string | null;
  archivedBy?: 'candidate' | 'company';
  messages: SeedMessage[];
}[] = [
  {
    candidate: 'sara',
    company: 'acme',
    job: 'robotics',
    messages: [
      [
        'company',
        26 * 60,
        'Hello Sara, thank you for applying to the Senior Robotics Engineer role.',
        true,
      ],
      ['candidate', 26 * 60 - 12, 'Thank you! I am very interested in the position.', true],
      [
        'company',
        25 * 60,
        'Could you share a short summary of your work on motion planning?',
        true,
      ],
      [
        'candidate',
        24 * 60 + 30,
        'Sure — I led the path-planning module for a warehouse robot fleet.',
        true,
      ],
      ['company', 90, 'Great. We would like to invite you to a technical interview.', false],
      ['company', 88, 'Would Tuesday at 10:00 work for you?', false],
    ],
  },
  {
    candidate: 'sara',
    company: 'nile',
    job: 'frontend',
    messages: [
      ['candidate', 3 * 24 * 60, 'Hi, is the Frontend Developer position still open?', true],
      [
        'company',
        3 * 24 * 60 - 30,
        'Unfortunately it has just been closed. We will keep your profile.',
        true,
      ],
    ],
  },
  {
    candidate: 'sara',
    company: 'harbor',
    job: null,
    messages: [
      ['company', 2 * 24 * 60, 'Hello Sara, we saw your profile and would love to talk.', true],
      ['candidate', 2 * 24 * 60 - 45, 'Hello! Happy to chat — what do you have in mind?', true],
    ],
  },
  {
    candidate: 'sara',
    company: 'cedar',
    job: 'nurse',
    archivedBy: 'candidate',
    messages: [
      ['company', 6 * 24 * 60, 'Thanks for your interest in the Clinical Data Analyst role.', true],
    ],
  },
  {
    candidate: 'omar',
    company: 'acme',
    job: 'robotics',
    messages: [
      ['candidate', 5 * 60, 'Good morning, I applied for the Senior Robotics Engineer role.', true],
      ['company', 4 * 60, 'Good morning Omar, we are reviewing applications this week.', true],
      ['candidate', 30, 'Thank you, looking forward to hearing from you.', false],
    ],
  },
  {
    candidate: 'lina',
    company: 'acme',
    job: 'embedded',
    archivedBy: 'company',
    messages: [
      ['candidate', 4 * 24 * 60, 'Hello, I would like to know more about the embedded role.', true],
    ],
  },
  {
    candidate: 'youssef',
    company: 'acme',
    job: 'qa',
    messages: [
      ['candidate', 7 * 24 * 60, 'Is there any update on the QA Technician position?', true],
    ],
  },
  {
    candidate: 'maya',
    company: 'acme',
    job: 'embedded',
    messages: [['company', 3 * 60, 'Hi Maya, are you available for a call this week?', true]],
  },
  {
    candidate: 'omar',
    company: 'harbor',
    job: 'coordinator',
    messages: [
      ['candidate', 10 * 60, 'Hello, I am interested in the Logistics Coordinator job.', true],
    ],
  },
  {
    candidate: 'daniel',
    company: 'orbit',
    job: 'analyst',
    messages: [
      ['company', 8 * 60, 'Hi Daniel, thanks for applying to the Risk Analyst role.', true],
    ],
  },
];

export const APPLICATION_GROUPS = [
  { key: 'interview', company: 'acme', name: 'Interview' },
  { key: 'shortlist', company: 'acme', name: 'Shortlisted' },
  { key: 'new', company: 'acme', name: 'New applicants' },
] as const;

export const APPLICATIONS = [
  { candidate: 'sara', job: 'robotics', group: 'interview' },
  { candidate: 'omar', job: 'robotics', group: 'shortlist' },
  { candidate: 'lina', job: 'embedded', group: 'new' },
  { candidate: 'maya', job: 'embedded', group: 'new' },
  { candidate: 'sara', job: 'frontend', group: null },
] as const;

/** Saved replies of the demo accounts (their variables are filled when a reply is inserted). */
export const TEMPLATES: { user: string; name: string; body: string }[] = [
  {
    user: 'acme',
    name: 'Interview invitation',
    body: 'Hi {{candidate.first_name}}, thank you for applying for {{job.title}}. We would like to invite you to an interview. Which times suit you next week?\n\nBest regards,\n{{me.name}}',
  },
  {
    user: 'acme',
    name: 'Application received',
    body: 'Hi {{candidate.first_name}}, we have received your application for {{job.title}} and will get back to you within a week.\n\n{{me.name}}',
  },
  {
    user: 'acme',
    name: 'Position filled',
    body: 'Dear {{candidate.name}}, thank you for your interest in {{job.title}}. The position has now been filled, but we will keep your profile for future openings.\n\n{{company.name}}',
  },
  {
    user: 'sara',
    name: 'Availability',
    body: 'Thank you for getting back to me. I am available for an interview any weekday after 2 pm and can start within a month.\n\n{{me.name}}',
  },
];
