// Settings: the theme (light, dark, e-ink) and the board's coordinates,
// kept in this browser and applied to the whole page.

const THEMES = ['light', 'dark', 'eink'];

/** Applies the stored settings to the page. */
export function applySettings() {
  const theme = localStorage.getItem('vw-theme') || 'light';
  document.documentElement.dataset.theme = THEMES.includes(theme) ? theme : 'light';
  document.documentElement.dataset.coords = localStorage.getItem('vw-coords') === 'off' ? 'off' : 'on';
}

/** @param {HTMLElement} root */
export function showSettings(root) {
  const theme = document.documentElement.dataset.theme || 'light';
  root.innerHTML = `<section><h2>Settings</h2>
    <form data-form="settings">
      <label>Theme <select name="theme">
        <option value="light">light</option>
        <option value="dark">dark</option>
        <option value="eink">e-ink (black and white, no animation)</option>
      </select></label>
      <label><input type="checkbox" name="coords"> coordinates on the board</label>
    </form>
    <p><a href="#/">Back</a></p></section>`;
  const form = /** @type {HTMLFormElement} */ (root.querySelector('form'));
  const select = /** @type {HTMLSelectElement} */ (form.elements.namedItem('theme'));
  const coords = /** @type {HTMLInputElement} */ (form.elements.namedItem('coords'));
  select.value = theme;
  coords.checked = document.documentElement.dataset.coords !== 'off';
  form.addEventListener('change', () => {
    localStorage.setItem('vw-theme', select.value);
    localStorage.setItem('vw-coords', coords.checked ? 'on' : 'off');
    applySettings();
  });
}
