// The board's page script: mounts the messenger's frames with embed.js (window.JobMessenger) and
// records every event they raise (window.events and the visible "Messenger events" list).
//
// One sign-in link a page: the first frame is mounted with it; the page's other frames are mounted
// once that one is `ready`, without a link, and share its session (the partitioned cookie of the
// messenger inside this site). Any frame that reports `signin-required` asks the board's server for a
// fresh link (`/signin-url`) and is mounted again with it.
(() => {
  const config = JSON.parse(document.getElementById('board-config').textContent);
  const log = document.getElementById('events');
  /** @type {{frame: string, type: string, detail: unknown, at: number}[]} */
  const events = [];
  /** @type {{frame: string, at: number, withLink: boolean}[]} */
  const mounts = [];
  const handles = {};
  window.events = events;
  window.mounts = mounts;
  window.board = { handles, mount: (spec) => mount(spec) };
  const now = () => performance.timeOrigin + performance.now();

  const record = (frame, type, detail) => {
    events.push({ frame, type, detail: detail ?? null, at: now() });
    const item = document.createElement('li');
    item.textContent = `${frame}: ${type}${detail === undefined ? '' : ` ${JSON.stringify(detail)}`}`;
    log.append(item);
  };

  let link = config.signInUrl;
  /** The page's link, once: later mounts share the session it opened. */
  const takeLink = () => {
    const taken = link;
    link = undefined;
    return taken;
  };
  const freshLink = async () => {
    const response = await fetch('/signin-url', { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`/signin-url answered ${response.status}`);
    return (await response.json()).signInUrl;
  };

  /** A frame lost its session more often than this in a row: show a button instead of looping. */
  const MAX_RETRIES = 2;

  const mount = (spec, signInUrl = takeLink(), retries = 0) => {
    handles[spec.name]?.destroy();
    const element = document.getElementById(spec.element);
    element.replaceChildren();
    const options = {
      mode: spec.mode,
      locale: config.locale,
      theme: config.theme,
      ...(spec.mode === 'conversation'
        ? { company: spec.company, candidate: spec.candidate, job: spec.job }
        : {}),
      ...(signInUrl ? { signInUrl } : {}),
    };
    mounts.push({ frame: spec.name, at: now(), withLink: Boolean(signInUrl) });
    const handle = window.JobMessenger.mount(element, options);
    handles[spec.name] = handle;
    let readyOnce = false;
    handle.on('ready', (detail) => {
      record(spec.name, 'ready', detail);
      readyOnce = true;
      spec.onReady?.();
    });
    handle.on('unread', (detail) => record(spec.name, 'unread', detail));
    handle.on('conversation', (detail) => record(spec.name, 'conversation', detail));
    handle.on('signin-required', (detail) => {
      record(spec.name, 'signin-required', detail);
      const attempt = readyOnce ? 0 : retries + 1;
      if (attempt > MAX_RETRIES) {
        // this browser keeps no session for the frame (no partitioned cookies, or every
        // third-party cookie blocked): the messenger's own page, top-level, instead
        handle.destroy();
        delete handles[spec.name];
        const open = document.createElement('a');
        open.className = 'board-button';
        open.href = '/open-messages';
        open.target = '_blank';
        open.textContent = 'Open your messages';
        element.replaceChildren(open);
        return;
      }
      void freshLink().then((fresh) => mount(spec, fresh, attempt));
    });
    return handle;
  };

  // The page's frames: the first with the link, the rest after it is ready.
  const [first, ...rest] = config.mounts ?? [];
  if (first) {
    let started = false;
    first.onReady = () => {
      if (started) return;
      started = true;
      for (const spec of rest) mount(spec, undefined);
    };
    mount(first);
  }

  // A job page: "Message the candidate" opens the conversation of those host ids.
  for (const button of document.querySelectorAll('[data-message-company]')) {
    button.addEventListener('click', () => {
      const spec = {
        name: 'conversation',
        element: config.conversationElement,
        mode: 'conversation',
        company: button.dataset.messageCompany,
        candidate: button.dataset.messageCandidate,
        job: button.dataset.messageJob,
      };
      if (handles.conversation) {
        // already mounted: switch it to this conversation
        handles.conversation.open({
          company: spec.company,
          candidate: spec.candidate,
          job: spec.job,
        });
        return;
      }
      mount(spec);
      document.getElementById(config.conversationElement).scrollIntoView({ block: 'nearest' });
    });
  }
})();
