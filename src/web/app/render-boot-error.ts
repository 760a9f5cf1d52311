/** A page-wide alert in place of the page (before React renders anything). */
const renderAlert = (container: HTMLElement, message: string, action?: HTMLElement): void => {
  const wrapper = document.createElement('div');
  wrapper.className = 'page-status';
  wrapper.setAttribute('role', 'alert');
  const text = document.createElement('p');
  text.textContent = message;
  wrapper.append(text, ...(action ? [action] : []));
  container.replaceChildren(wrapper);
};

/** Without the configuration nothing works: say so plainly and offer a reload. */
export const renderBootError = (
  container: HTMLElement,
  message: string,
  retryLabel: string,
): void => {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button button--primary';
  button.textContent = retryLabel;
  button.addEventListener('click', () => location.reload());
  renderAlert(container, message, button);
};

/** Embedded, no session at boot (the host was told `signin-required`): say so, nothing to retry. */
export const renderSessionEnded = (container: HTMLElement, message: string): void =>
  renderAlert(container, message);
