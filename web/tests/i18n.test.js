// Every text the page shows through t('…') has its Russian, and both
// languages fill the same {names}. No browser needed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RU, EN, ENDINGS, PLURAL, REFUSED, REFUSED_STEP } from '../js/i18n.js';
import { UK } from '../js/uk.js';
import { CS } from '../js/cs.js';
import { EXAMPLES } from '../js/rules.js';
import { VARIANTS } from '../js/newgame.js';

const js = join(dirname(fileURLToPath(import.meta.url)), '..', 'js');

/** Every literal key of a t('…') call in web/js, and the keys used indirectly. */
function keys() {
  const found = new Set();
  for (const file of readdirSync(js)) {
    const text = readFileSync(join(js, file), 'utf8');
    for (const m of text.matchAll(/\bt\('((?:[^'\\]|\\.)*)'/g)) found.add(m[1].replace(/\\'/g, "'"));
  }
  for (const ex of EXAMPLES) { found.add(ex.title); found.add(ex.text); }
  for (const e of ENDINGS) found.add(e);
  for (const v of VARIANTS) { found.add(v.name); found.add(v.about); }
  for (const w of [...Object.values(REFUSED), ...Object.values(REFUSED_STEP)]) found.add(w);
  // The API's status words, shown through statusText().
  for (const s of ['X to move', 'O to move', 'X wins', 'O wins', 'draw', 'aborted']) found.add(s);
  return [...found];
}

test('every text has its Russian', () => {
  const all = keys();
  assert.ok(all.length > 80, `the scan found the texts (${all.length})`);
  const missing = all.filter((k) => !(k in RU));
  assert.deepEqual(missing, [], 'texts without Russian');
});

for (const [name, words] of /** @type {const} */ ([['Ukrainian', UK], ['Czech', CS]])) {
  test(`every text has its ${name}, and ${name} has no text Russian has not`, () => {
    assert.deepEqual(keys().filter((k) => !(k in words)), [], `texts without ${name}`);
    assert.deepEqual(Object.keys(words).filter((k) => !(k in RU)), [], `${name} texts Russian has not`);
  });
}

test('keys that are names have English, and every translation fills the same {names}', () => {
  const names = (/** @type {string} */ s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const k of keys()) {
    if (/^[a-z]+-[a-z]+$/.test(k)) assert.ok(k in EN, `${k} has its English text`);
    const english = EN[k] || k;
    assert.deepEqual(names(RU[k] || ''), names(english), `the {names} of '${k}'`);
    assert.deepEqual(names(UK[k] || ''), names(english), `the Ukrainian {names} of '${k}'`);
    assert.deepEqual(names(CS[k] || ''), names(english), `the Czech {names} of '${k}'`);
  }
});

test('every word that changes with a number has its forms in both languages, for every tn() key used', () => {
  for (const file of readdirSync(js)) {
    const text = readFileSync(join(js, file), 'utf8');
    for (const m of text.matchAll(/\btn\('((?:[^'\\]|\\.)*)'/g)) assert.ok(m[1] in PLURAL, `${file}: tn('${m[1]}') has its forms`);
  }
  for (const [key, forms] of Object.entries(PLURAL)) {
    assert.equal(forms.en.length, 2, `${key}: English one and other`);
    assert.equal(forms.ru.length, 3, `${key}: Russian one, few and many`);
    assert.equal(forms.uk.length, 3, `${key}: Ukrainian one, few and many`);
    assert.equal(forms.cs.length, 3, `${key}: Czech one, few and other`);
    for (const f of [...forms.en, ...forms.ru, ...forms.uk, ...forms.cs]) assert.ok(f.includes('{n}'), `${key}: '${f}' shows the number`);
  }
});
