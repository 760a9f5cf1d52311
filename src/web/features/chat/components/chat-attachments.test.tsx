/** Attaching files to a message: choose, paste or drop, upload with progress, remove, send. */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { refusedKindMessage } from '../../../../shared/attachments.js';
import { BLOCKED_MESSAGE } from '../../../../shared/safety-paths.js';
import { ApiError, type UploadOptions } from '../../../lib/api-client.js';
import {
  renderMessagesPage,
  rowFor,
} from '../../../../../test-support/web/render-messages-page.js';

type Page = Awaited<ReturnType<typeof renderMessagesPage>>;

const openAcme = async (language: 'en' | 'ar' = 'en') => {
  const page = await renderMessagesPage({ language });
  await page.user.click(rowFor('Acme Robotics'));
  await screen.findByText('Can you do an interview on Monday?');
  return page;
};

const fileOf = (name: string, type: string, size = 2048) => {
  const file = new File(['x'], name, { type });
  // the bytes do not matter here, only what the page shows about them
  Object.defineProperty(file, 'size', { value: size });
  return file;
};

const pdf = () => fileOf('Offer letter.pdf', 'application/pdf', 2.5 * 1024 * 1024);
const png = () => fileOf('office.png', 'image/png', 48 * 1024);

/** A slow server: every upload waits until the test moves it (progress, finish, fail). */
const holdUploads = (page: Page) => {
  const held: {
    file: File;
    aborted: boolean;
    progress: (fraction: number) => void;
    finish: () => void;
    fail: (error: Error) => void;
  }[] = [];
  page.api.uploadAttachment.mockImplementation(
    (file: File, options?: UploadOptions) =>
      new Promise((resolve, reject) => {
        const entry = {
          file,
          aborted: false,
          progress: (fraction: number) =>
            act(() => options?.onProgress?.(file.size * fraction, file.size)),
          finish: () => resolve(page.fake.storeUpload(file)),
          fail: (error: Error) => reject(error),
        };
        options?.signal?.addEventListener('abort', () => {
          entry.aborted = true;
          reject(new DOMException('Aborted', 'AbortError'));
        });
        held.push(entry);
      }),
  );
  return held;
};

const chips = () => screen.queryAllByTestId('attachment-chip');
const chipFor = (name: string) => chips().find((chip) => chip.textContent?.includes(name))!;
const choose = (page: Page, ...files: File[]) =>
  page.user.upload(screen.getByTestId('attach-input'), files);
const sendButton = () => screen.getByRole('button', { name: 'Send' });
const messageBox = () => screen.getByPlaceholderText('Write Message...');

const KIND_REFUSED = refusedKindMessage('html');

describe('chat pane: attaching files', () => {
  it('the attach button is a real, named button that opens the file chooser', async () => {
    await openAcme();
    const attach = screen.getByRole('button', { name: 'Attach files' });
    const input = screen.getByTestId<HTMLInputElement>('attach-input');
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveAttribute('multiple');
    expect(input).not.toBeVisible();
    const click = vi.spyOn(input, 'click');
    fireEvent.click(attach);
    expect(click).toHaveBeenCalledTimes(1);
  });

  it('two files chosen: two chips with name, kind and size, each with its progress, then ready', async () => {
    const page = await openAcme();
    const held = holdUploads(page);
    await page.user.type(messageBox(), 'Here are the documents');
    await choose(page, pdf(), png());

    expect(page.api.uploadAttachment).toHaveBeenCalledTimes(2); // one call per file, at once
    expect(chips()).toHaveLength(2);
    expect(screen.getByRole('list', { name: 'Files to send' })).toBeInTheDocument();
    expect(chipFor('Offer letter.pdf')).toHaveTextContent('PDF · 2.5 MB');
    expect(chipFor('office.png')).toHaveTextContent('PNG · 48 kB');
    const bar = within(chipFor('Offer letter.pdf')).getByRole('progressbar', {
      name: 'Uploading Offer letter.pdf',
    });
    expect(bar).toHaveAttribute('value', '0');
    // Send waits for every upload, even with text typed
    expect(sendButton()).toBeDisabled();
    expect(screen.getByText('Send waits until the files are uploaded.')).toBeInTheDocument();

    held[0]!.progress(0.5);
    expect(bar).toHaveAttribute('value', '50');
    held[0]!.finish();
    await waitFor(() => expect(chipFor('Offer letter.pdf')).toHaveTextContent('Ready'));
    expect(within(chipFor('Offer letter.pdf')).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(sendButton()).toBeDisabled(); // the second one is still on its way
    held[1]!.progress(0.9);
    expect(within(chipFor('office.png')).getByRole('progressbar')).toHaveAttribute('value', '90');
    held[1]!.finish();
    await waitFor(() => expect(sendButton()).toBeEnabled());
    expect(screen.queryAllByRole('progressbar')).toHaveLength(0);
    await waitFor(() =>
      expect(screen.getByTestId('attachment-announcer')).toHaveTextContent(
        'office.png is ready to send',
      ),
    );
  });

  it('files alone make a message: Send passes attachment_ids, the chips are cleared, the bubble shows the files', async () => {
    const page = await openAcme();
    expect(sendButton()).toBeDisabled();
    await choose(page, pdf(), png());
    await waitFor(() => expect(sendButton()).toBeEnabled());
    await page.user.click(sendButton());

    await waitFor(() => expect(page.api.sendMessage).toHaveBeenCalledTimes(1));
    expect(page.api.sendMessage).toHaveBeenCalledWith({
      receiver_id: 10,
      messenger_user: 1,
      job_id: 100,
      message: '',
      client_id: expect.any(String),
      attachment_ids: [5000, 5001],
    });
    expect(chips()).toHaveLength(0);
    const files = await screen.findAllByTestId('message-files');
    expect(files.at(-1)).toHaveTextContent('Offer letter.pdf');
    expect(sendButton()).toBeDisabled();
  });

  it('the pending bubble names the files while the send is on its way', async () => {
    const page = await openAcme();
    let release = () => {};
    const original = page.api.sendMessage.getMockImplementation()!;
    page.api.sendMessage.mockImplementation(async (body) => {
      await new Promise<void>((resolve) => (release = resolve));
      return original(body);
    });
    await choose(page, pdf());
    await waitFor(() => expect(sendButton()).toBeEnabled());
    await page.user.type(messageBox(), 'The offer{Enter}');
    const pending = await screen.findByTestId('pending-message');
    expect(pending).toHaveTextContent('The offer');
    expect(within(pending).getByTestId('pending-files')).toHaveTextContent('Offer letter.pdf');
    expect(chips()).toHaveLength(0);
    release();
    await waitFor(() => expect(screen.queryByTestId('pending-message')).not.toBeInTheDocument());
  });

  it('a refused kind (422) says why on that file, for screen readers too, and does not hold the other file', async () => {
    const page = await openAcme();
    const held = holdUploads(page);
    await choose(page, fileOf('page.html', 'text/html'), pdf());
    held[0]!.fail(new ApiError(422, KIND_REFUSED, { file: [KIND_REFUSED] }));
    const alert = await within(chipFor('page.html')).findByRole('alert');
    expect(alert).toHaveTextContent(KIND_REFUSED);
    expect(chipFor('page.html')).toHaveAttribute('data-status', 'failed');
    // a refused file is not offered again
    expect(within(chipFor('page.html')).queryByRole('button', { name: /Try again/ })).toBeNull();
    held[1]!.finish();
    await waitFor(() => expect(sendButton()).toBeEnabled());
    await page.user.click(sendButton());
    await waitFor(() => expect(page.api.sendMessage).toHaveBeenCalledTimes(1));
    expect(page.api.sendMessage.mock.calls[0]![0].attachment_ids).toEqual([5000]);
  });

  it("refused with 403 (blocked by the other party, suspended): the server's reason on the file, not offered again", async () => {
    const page = await openAcme();
    const held = holdUploads(page);
    await choose(page, pdf(), png());
    held[0]!.fail(new ApiError(403, BLOCKED_MESSAGE));
    held[1]!.fail(new ApiError(403, 'Uploads are closed here.'));
    expect(await within(chipFor('Offer letter.pdf')).findByRole('alert')).toHaveTextContent(
      BLOCKED_MESSAGE,
    );
    expect(await within(chipFor('office.png')).findByRole('alert')).toHaveTextContent(
      'Uploads are closed here.',
    );
    expect(
      within(chipFor('Offer letter.pdf')).queryByRole('button', { name: /Try again/ }),
    ).toBeNull();
  });

  it('too large (413), too many at once (429): the reason on the file; a rate-limited one can be tried again', async () => {
    const page = await openAcme();
    const held = holdUploads(page);
    await choose(page, fileOf('scan.pdf', 'application/pdf'), png());
    held[0]!.fail(new ApiError(413, 'The file is larger than 10 MiB.'));
    held[1]!.fail(new ApiError(429, 'Too many uploads. Please wait a moment.'));
    expect(await within(chipFor('scan.pdf')).findByRole('alert')).toHaveTextContent(
      'Too large: a file may be at most 10 MB.',
    );
    expect(await within(chipFor('office.png')).findByRole('alert')).toHaveTextContent(
      'Too many uploads at once. Wait a moment, then try again.',
    );
    await page.user.click(
      within(chipFor('office.png')).getByRole('button', { name: 'Try again: upload office.png' }),
    );
    expect(page.api.uploadAttachment).toHaveBeenCalledTimes(3);
    held[2]!.finish();
    await waitFor(() => expect(chipFor('office.png')).toHaveTextContent('Ready'));
  });

  it('a file over 10 MiB is refused on the page, before any byte is sent', async () => {
    const page = await openAcme();
    await choose(page, fileOf('video.pdf', 'application/pdf', 11 * 1024 * 1024));
    expect(page.api.uploadAttachment).not.toHaveBeenCalled();
    expect(within(chipFor('video.pdf')).getByRole('alert')).toHaveTextContent(
      'Too large: a file may be at most 10 MB.',
    );
    expect(sendButton()).toBeDisabled();
  });

  it('removing a chip aborts its upload in flight; a finished one is removed too', async () => {
    const page = await openAcme();
    const held = holdUploads(page);
    await choose(page, pdf(), png());
    held[1]!.finish();
    await waitFor(() => expect(chipFor('office.png')).toHaveTextContent('Ready'));
    expect(sendButton()).toBeDisabled(); // the PDF is still uploading

    await page.user.click(screen.getByRole('button', { name: 'Remove Offer letter.pdf' }));
    expect(held[0]!.aborted).toBe(true);
    expect(chips()).toHaveLength(1);
    expect(sendButton()).toBeEnabled(); // the PNG alone can go

    await page.user.click(screen.getByRole('button', { name: 'Remove office.png' }));
    expect(chips()).toHaveLength(0);
    expect(screen.queryByTestId('attachment-chips')).not.toBeInTheDocument();
    expect(sendButton()).toBeDisabled();
  });

  it('a sixth file is refused with a message; removing one makes room again', async () => {
    const page = await openAcme();
    await choose(
      page,
      ...['a', 'b', 'c', 'd'].map((name) => fileOf(`${name}.txt`, 'text/plain', 100)),
    );
    await choose(page, fileOf('e.txt', 'text/plain', 100), fileOf('f.txt', 'text/plain', 100));
    expect(chips()).toHaveLength(5);
    expect(page.api.uploadAttachment).toHaveBeenCalledTimes(5);
    expect(chipFor('f.txt')).toBeUndefined();
    expect(screen.getByTestId('attachment-limit')).toHaveTextContent(
      'At most 5 files per message: 1 file was not added.',
    );
    expect(screen.getByTestId('attachment-limit')).toHaveAttribute('role', 'alert');

    await page.user.click(screen.getByRole('button', { name: 'Remove a.txt' }));
    expect(screen.queryByTestId('attachment-limit')).not.toBeInTheDocument();
    await choose(page, fileOf('f.txt', 'text/plain', 100));
    expect(chips()).toHaveLength(5);
  });

  it('a pasted file or image is attached; pasted text stays text', async () => {
    const page = await openAcme();
    const screenshot = fileOf('image.png', 'image/png', 30 * 1024);
    fireEvent.paste(messageBox(), { clipboardData: { files: [screenshot], types: ['Files'] } });
    await waitFor(() => expect(chipFor('image.png')).toHaveTextContent('Ready'));
    expect(page.api.uploadAttachment).toHaveBeenCalledWith(screenshot, expect.anything());
    expect(messageBox()).toHaveValue('');

    await page.user.click(messageBox());
    await page.user.paste('just text');
    expect(messageBox()).toHaveValue('just text');
    expect(page.api.uploadAttachment).toHaveBeenCalledTimes(1);
  });

  it('dragging files over the conversation shows a drop hint; dropping attaches them', async () => {
    const page = await openAcme();
    const pane = screen.getByTestId('chat-pane');
    const dataTransfer = { types: ['Files'], files: [pdf()], dropEffect: 'none' };
    fireEvent.dragEnter(pane, { dataTransfer });
    expect(screen.getByTestId('drop-hint')).toHaveTextContent('Drop files here to attach them');
    // crossing a child is no leave
    fireEvent.dragEnter(messageBox(), { dataTransfer });
    fireEvent.dragLeave(messageBox(), { dataTransfer });
    expect(screen.getByTestId('drop-hint')).toBeInTheDocument();
    fireEvent.drop(messageBox(), { dataTransfer });
    expect(screen.queryByTestId('drop-hint')).not.toBeInTheDocument();
    await waitFor(() => expect(chipFor('Offer letter.pdf')).toHaveTextContent('Ready'));
    expect(page.api.uploadAttachment).toHaveBeenCalledTimes(1);
  });

  it('a failed send keeps its files: they come back as chips, and Retry sends them with the same client_id', async () => {
    const page = await openAcme();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    page.api.sendMessage.mockRejectedValueOnce(new ApiError(0, 'Network error'));
    await choose(page, pdf());
    await waitFor(() => expect(sendButton()).toBeEnabled());
    await page.user.type(messageBox(), 'The offer{Enter}');
    const notice = await screen.findByTestId('send-failed');
    expect(messageBox()).toHaveValue('The offer');
    expect(chipFor('Offer letter.pdf')).toHaveTextContent('Ready');
    const first = page.api.sendMessage.mock.calls[0]![0];
    expect(first.attachment_ids).toEqual([5000]);

    await page.user.click(within(notice).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByTestId('send-failed')).not.toBeInTheDocument());
    const second = page.api.sendMessage.mock.calls[1]![0];
    expect(second).toMatchObject({ attachment_ids: [5000], client_id: first.client_id });
    expect(chips()).toHaveLength(0);
    expect(messageBox()).toHaveValue('');
    errors.mockRestore();
  });

  it('files the server will no longer attach (422 attachment_ids) leave the failed message: Retry sends the text alone', async () => {
    const page = await openAcme();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const notAttachable = 'Only your own files not yet sent can be attached.';
    page.api.sendMessage.mockRejectedValueOnce(new ApiError(0, 'Network error'));
    await choose(page, pdf());
    await waitFor(() => expect(sendButton()).toBeEnabled());
    await page.user.type(messageBox(), 'The offer{Enter}');
    const notice = await screen.findByTestId('send-failed');
    expect(chipFor('Offer letter.pdf')).toHaveTextContent('Ready');

    // meanwhile the file went out in another message: the retry is refused for it
    page.api.sendMessage.mockRejectedValueOnce(
      new ApiError(422, notAttachable, { attachment_ids: [notAttachable] }),
    );
    await page.user.click(within(notice).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(chips()).toHaveLength(0));
    expect(screen.getByTestId('send-failed')).toBeInTheDocument();

    await page.user.click(
      within(screen.getByTestId('send-failed')).getByRole('button', { name: 'Retry' }),
    );
    await waitFor(() => expect(screen.queryByTestId('send-failed')).not.toBeInTheDocument());
    const [first, second, third] = page.api.sendMessage.mock.calls.map((call) => call[0]);
    expect(second).toMatchObject({ attachment_ids: [5000], client_id: first!.client_id });
    expect(third).toMatchObject({ message: 'The offer' });
    expect(third).not.toHaveProperty('attachment_ids');
    expect(third!.client_id).not.toBe(second!.client_id);
    errors.mockRestore();
  });

  it('after a reload, a failed message’s files are back with its text, and sending again reuses its client_id', async () => {
    const first = await openAcme();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    first.api.sendMessage.mockRejectedValueOnce(new ApiError(503, 'Service unavailable'));
    await choose(first, pdf());
    await waitFor(() => expect(sendButton()).toBeEnabled());
    await first.user.type(messageBox(), 'The offer{Enter}');
    await screen.findByTestId('send-failed');
    const sent = first.api.sendMessage.mock.calls[0]![0];
    const upload = first.fake.state.uploads.get(5000)!;
    first.unmount();

    const page = await openAcme();
    page.fake.state.uploads.set(upload.id, upload); // the same server: the upload is still unused
    expect(messageBox()).toHaveValue('The offer');
    expect(chipFor('Offer letter.pdf')).toHaveTextContent('PDF · 2.5 MB · Ready');
    await page.user.click(sendButton());
    await waitFor(() => expect(page.api.sendMessage).toHaveBeenCalledTimes(1));
    expect(page.api.sendMessage.mock.calls[0]![0]).toMatchObject({
      message: 'The offer',
      client_id: sent.client_id,
      attachment_ids: [5000],
    });
    await waitFor(() => expect(screen.queryByTestId('send-failed')).not.toBeInTheDocument());
    expect(chips()).toHaveLength(0);
    errors.mockRestore();
  });

  it('everything is reachable by Tab, and axe finds nothing in the composer with files in every state', async () => {
    const page = await openAcme();
    const held = holdUploads(page);
    await choose(page, fileOf('page.html', 'text/html'), pdf(), png());
    held[0]!.fail(new ApiError(422, KIND_REFUSED, { file: [KIND_REFUSED] }));
    held[1]!.finish();
    await within(chipFor('page.html')).findByRole('alert');
    await waitFor(() => expect(chipFor('Offer letter.pdf')).toHaveTextContent('Ready'));

    // from the first chip's Remove, Tab goes through every chip, the attach button, then the box
    screen.getByRole('button', { name: 'Remove page.html' }).focus();
    await page.user.tab();
    expect(screen.getByRole('button', { name: 'Remove Offer letter.pdf' })).toHaveFocus();
    await page.user.tab();
    expect(screen.getByRole('button', { name: 'Remove office.png' })).toHaveFocus();
    await page.user.tab();
    expect(screen.getByRole('button', { name: 'Attach files' })).toHaveFocus();
    await page.user.tab();
    expect(screen.getByRole('button', { name: 'Saved replies' })).toHaveFocus();
    await page.user.tab();
    expect(messageBox()).toHaveFocus();

    const { violations, passes } = await axe.run(screen.getByTestId('chat-pane'), {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      },
      // jsdom has no layout: contrast is checked by the browser suite
      rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
    });
    expect(violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
    expect(passes.map((rule) => rule.id)).toEqual(
      expect.arrayContaining(['button-name', 'aria-allowed-attr', 'list', 'listitem']),
    );
    held[2]!.finish();
    await waitFor(() => expect(screen.queryAllByRole('progressbar')).toHaveLength(0));
  });

  it('in Arabic: the button, the chips and the reasons are translated', async () => {
    const page = await openAcme('ar');
    const held = holdUploads(page);
    expect(screen.getByRole('button', { name: 'إرفاق ملفات' })).toBeInTheDocument();
    await choose(page, fileOf('page.html', 'text/html'));
    held[0]!.fail(new ApiError(422, KIND_REFUSED, { file: [KIND_REFUSED] }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'لا يمكن إرسال هذا النوع من الملفات (html).',
    );
    expect(screen.getByRole('button', { name: 'إزالة page.html' })).toBeInTheDocument();
  });
});
