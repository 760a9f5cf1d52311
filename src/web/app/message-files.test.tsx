/** Attachments in the open conversation: image thumbnails and file cards. */
import { act, screen, within } from '@testing-library/react';
import { makeChat, users } from '../../../test-support/web/fixtures.js';
import {
  conversationList,
  renderMessagesPage,
  rowFor,
} from '../../../test-support/web/render-messages-page.js';

describe('files in a message', () => {
  it('shows an image as a thumbnail opening full size, and a file as a card with its name, kind and size', async () => {
    const page = await renderMessagesPage();
    await page.user.click(rowFor(/^Acme Robotics/, conversationList()));
    await screen.findByText('Can you do an interview on Monday?');
    const acme = page.fake.state.conversations.find((item) => item.id === 1)!;
    const chat = {
      ...makeChat(acme, users.acme, '', { id: 7401 }),
      attachments: [
        {
          id: 11,
          name: 'Offer letter.pdf',
          size: 2.5 * 1024 * 1024,
          mime: 'application/pdf',
          url: '/user/attachments/11',
        },
        {
          id: 12,
          name: 'office.png',
          size: 48_000,
          mime: 'image/png',
          width: 1200,
          height: 600,
          url: '/user/attachments/12',
          thumbnail_url: '/user/attachments/12/thumbnail',
        },
      ],
    };
    act(() => page.realtime.emit(chat));
    const files = await screen.findByTestId('message-files');
    const card = within(files).getByRole('link', { name: /Offer letter\.pdf/ });
    expect(card).toHaveAttribute('href', '/user/attachments/11');
    expect(card).toHaveAttribute('download', 'Offer letter.pdf');
    expect(card).toHaveTextContent('PDF · 2.5 MB');
    const image = within(files).getByRole('img', { name: 'office.png' });
    expect(image).toHaveAttribute('src', '/user/attachments/12/thumbnail');
    expect(image).toHaveAttribute('width', '240');
    expect(image).toHaveAttribute('height', '120');
    expect(image.closest('a')).toHaveAttribute('href', '/user/attachments/12');
  });
});
