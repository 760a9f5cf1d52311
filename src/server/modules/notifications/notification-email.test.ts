import { describe, expect, it } from 'vitest';
import { renderNotificationEmail } from './notification-email.js';

describe('renderNotificationEmail', () => {
  it.each(['en', 'ar'] as const)('renders in %s with each message’s time in UTC', (locale) => {
    const email = renderNotificationEmail({
      locale,
      recipientName: 'Sara',
      messages: [
        {
          id: 7,
          sender_id: 2,
          messenger_user_id: 3,
          message: 'Are you free on Monday?',
          created_at: '2030-01-02T09:05:00.000Z',
          sender_name: 'Acme',
        },
      ],
      publicUrl: new URL('https://jobs.example'),
      unsubscribeUrl: 'https://jobs.example/unsubscribe?token=t',
    });
    expect(email.text).toContain('Are you free on Monday?');
    expect(email.text).toContain('UTC');
    expect(email.html).toContain('UTC');
  });
});
