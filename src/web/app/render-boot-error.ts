/** Without the configuration nothing works: say so plainly and offer a reload. */
export const renderBootError = (
  container: HTMLElement,
  message: string,
  retryLabel: string,
): void => {
  const wrapper = document.createElement('div');
  wrapper.className = 'page-status';
  wrapper.setAttribute('role', 'alert');
  const text = document.createElement('p');
  text.textContent = message;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button button--primary';
  button.textContent = retryLabel;
  button.addEventListener('click', () => location.reload());
  wrapper.append(text, button);
  container.replaceChildren(wrapper);
};
