// End-to-end tests of the built page (dist/) in Debian's Chromium.
//
//   node tests/e2e/run.mjs [dist-dir]
//
// Each test drives the page as a person would: picks, ticks, drags, copies
// the link, reloads, imports a file. Every page is watched for console
// errors and warnings and for requests that leave its origin; any fails the run.
// Screenshots at 1280 px and 390 px are written to tests/e2e/artifacts/;
// with DRIFT_UPDATE_SCREENSHOT=1 the 1280 px one also replaces
// assets/screenshot.png, the README's picture. DRIFT_E2E_ONLY=text runs only
// the tests whose names contain it.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { serve } from './serve.mjs';
import { freshContext } from './browser.mjs';

const here = new URL('.', import.meta.url).pathname;
const dist = process.argv[2] ?? `${here}../../dist`;
const server = await serve(dist);
const origin = server.origin;
await mkdir(`${here}artifacts`, { recursive: true });

const problems = [];

/** Opens `query` in `context`, watching for console errors and warnings and foreign requests. */
async function open(context, query = '') {
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()} on ${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error on ${page.url()}: ${e.message}`));
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) {
      problems.push(`request left the origin: ${url}`);
    }
  });
  await page.goto(`${origin}/${query}`);
  await page.waitForSelector('.summary:not(:empty)', { timeout: 30000 });
  return page;
}

const outcomeOf = (page, action) =>
  page.locator(`tr[data-action="${action}"] .outcome`).first().textContent();

const factRow = (page, fact) => page.locator(`.row[data-fact="${fact}"]`);

/** How many actions the headline says run without their rules. */
async function headlineCount(page) {
  const m = /(\d+) of \d+ actions? runs? without/.exec(await page.locator('.summary').textContent());
  assert.ok(m, 'the headline counts the actions that run without their rules');
  return Number(m[1]);
}

/** Waits until `read()` resolves to something other than `before`. */
async function changed(read, before, what) {
  for (let i = 0; i < 100; i++) {
    const now = await read();
    if (now !== before) return now;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} did not change from ${before}`);
}

/** Waits until `read()` resolves to `want`. */
async function becomes(read, want, what) {
  let now;
  for (let i = 0; i < 100; i++) {
    now = await read();
    if (now === want) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} is ${now}, expected ${want}`);
}

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

test('the late delegated rollback is ungoverned under the default policy', async () => {
  const { context, close } = await freshContext();
  try {
    const page = await open(context);
    assert.equal(await page.locator('#scenario').inputValue(), 'payments-incident');
    assert.equal(await page.locator('#policy').inputValue(), 'pinned_prefix');
    assert.equal(await outcomeOf(page, 'rollback-payments'), 'ungoverned');
    const summary = await page.locator('.summary').textContent();
    assert.match(summary, /^Under pinned prefix, \d of 8 actions run without their rules/);
    // Six facts, six canvases, each drawn.
    assert.equal(await page.locator('.row[data-fact] canvas').count(), 6);
    const draws = await factRow(page, 'payments-freeze').locator('canvas').getAttribute('data-draws');
    assert.ok(Number(draws) >= 1, `the freeze row was drawn ${draws} times`);
    // The analysis worker says what would flip the rollback, and what each round did.
    const tips = page.locator('tr[data-action="rollback-payments"] td.tips');
    await becomes(async () => /a window of [\d,]+ tokens: /.test(await tips.textContent()), true, 'the rollback\'s tipping points');
    assert.match(await tips.textContent(), /standing rule retention 0\.84\d or more: weakly governed/);
    const rounds = page.locator('.round-by-round');
    await becomes(async () => (await rounds.textContent()).includes('Round 3 (turn 44)'), true, 'round by round');
    assert.match(await rounds.textContent(), /payments-freeze \(tool, standing rule\) fell below the actionable line: 0\.56 → 0\.42; affects .*rollback-payments \(turn 63\)/);
    // The context-fill chart is drawn.
    assert.ok(Number(await page.locator('.fill-row canvas').getAttribute('data-draws')) >= 1);
  } finally {
    await close();
  }
});

test('externalising the freeze under externalised_state governs the rollback; the link and a reload keep it', async () => {
  const first = await freshContext();
  let link;
  try {
    const page = await open(first.context);
    await page.selectOption('#policy', 'externalised_state');
    await becomes(() => page.locator('#policy').inputValue(), 'externalised_state', 'policy');
    assert.equal(await outcomeOf(page, 'rollback-payments'), 'ungoverned');
    await factRow(page, 'payments-freeze').locator('input.externalise').check();
    await becomes(() => outcomeOf(page, 'rollback-payments'), 'governed', 'rollback outcome');

    // Copy link: the box shows the link even where the clipboard is closed.
    await page.click('#copy-link');
    await page.waitForSelector('.link-box:not([hidden])');
    link = await page.locator('.link-box').inputValue();
    assert.ok(link.startsWith(`${origin}/?v=1&`), link);
    assert.match(link, /p=externalised_state/);

    // Reload: the settings come back (URL and localStorage).
    await page.waitForTimeout(400);
    await page.reload();
    await page.waitForSelector('.summary:not(:empty)');
    assert.equal(await page.locator('#policy').inputValue(), 'externalised_state');
    assert.equal(await outcomeOf(page, 'rollback-payments'), 'governed');

    // Reload without the query: localStorage alone restores them.
    await page.goto(`${origin}/`);
    await page.waitForSelector('.summary:not(:empty)');
    assert.equal(await page.locator('#policy').inputValue(), 'externalised_state');
    assert.ok(await factRow(page, 'payments-freeze').locator('input.externalise').isChecked());
  } finally {
    await first.close();
  }
  // The link in a fresh browser shows the same state and outcomes.
  const second = await freshContext();
  try {
    const page = await open(second.context, link.slice(origin.length + 1));
    assert.equal(await page.locator('#policy').inputValue(), 'externalised_state');
    assert.ok(await factRow(page, 'payments-freeze').locator('input.externalise').isChecked());
    assert.equal(await outcomeOf(page, 'rollback-payments'), 'governed');
  } finally {
    await second.close();
  }
});

test('dragging a retention slider with the mouse changes a fidelity', async () => {
  const { context, close } = await freshContext();
  try {
    const page = await open(context);
    const fidelity = () => page.locator('tr[data-action="copy-eu-logs"] td.num').nth(1).textContent();
    const label = () => factRow(page, 'eu-residency').locator('canvas').getAttribute('aria-label');
    const [beforeF, beforeL] = [await fidelity(), await label()];
    const slider = page.locator('#retention-standing_rule');
    await slider.scrollIntoViewIfNeeded();
    const box = await slider.boundingBox();
    // The thumb sits at 0.75 of the track; drag it to the far right.
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.75, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.9, y, { steps: 5 });
    await page.mouse.move(box.x + box.width - 1, y, { steps: 5 });
    await page.mouse.up();
    const after = await changed(fidelity, beforeF, 'copy-eu-logs fidelity');
    assert.ok(Number(after) > Number(beforeF), `${beforeF} → ${after}`);
    await changed(label, beforeL, 'the eu-residency row description');
    assert.equal(Number(await slider.inputValue()), 1);
  } finally {
    await close();
  }
});

test('a broken scenario file shows the engine error and keeps the session', async () => {
  const { context, close } = await freshContext();
  try {
    const page = await open(context);
    await page.selectOption('#scenario', 'staging-migration');
    await becomes(() => page.locator('#scenario').inputValue(), 'staging-migration', 'scenario');
    const broken = {
      format: 'compaction-drift/scenario@1',
      id: 'broken',
      harness: { window_tokens: 32000, system_tokens: 2000, tokens_per_turn: 1500, tail_turns: 6, summary_tokens: 4000, turns: 70 },
      facts: [{ id: 'rule', text: 'never', role: 'tool', kind: 'standing_rul', turn: 4 }],
      actions: [],
    };
    await page.setInputFiles('#import-file', {
      name: 'broken.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(broken)),
    });
    const notice = page.locator('.notice.problem');
    await notice.waitFor();
    const text = await notice.textContent();
    assert.match(text, /broken\.json/);
    assert.match(text, /facts\[0\] \("rule"\)\.kind/);
    assert.match(text, /standing_rul/);
    // The previous scenario is still shown.
    assert.equal(await page.locator('#scenario').inputValue(), 'staging-migration');
    assert.equal(await outcomeOf(page, 'run-migration'), 'misbound');

    // A good file loads, and the link carries it whole.
    const good = { ...broken, id: 'mine', facts: [{ ...broken.facts[0], kind: 'standing_rule' }], actions: [{ id: 'act', text: 'act', turn: 60, governed_by: ['rule'] }] };
    await page.setInputFiles('#import-file', { name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(good)) });
    await becomes(() => page.locator('#scenario').inputValue(), 'imported:mine', 'scenario');
    assert.equal(await outcomeOf(page, 'act'), 'ungoverned');
    await page.click('#copy-link');
    assert.match(await page.locator('.link-box').inputValue(), /[?#]v=1&(src|sz)=/);
    // Compressed by the worker, once it has answered.
    await becomes(async () => /[?#]v=1&sz=/.test(await page.evaluate(() => location.href)), true, 'the compressed link');
    await page.click('#copy-link');
    assert.match(await page.locator('.link-box').inputValue(), /sz=/);
  } finally {
    await close();
  }
});

test('a number out of range or not whole is named and changes nothing; Reset clears it', async () => {
  const { context, close } = await freshContext();
  try {
    const page = await open(context);
    const summary = await page.locator('.summary').textContent();
    const window = page.locator('#harness-window_tokens');
    const complaint = page.locator('#harness-window_tokens ~ .control-error');
    const initial = await window.inputValue();
    await window.fill('500');
    await complaint.waitFor();
    assert.equal(await complaint.textContent(), '500 is outside 1,000..=2,000,000');
    assert.equal(await window.getAttribute('aria-invalid'), 'true');
    await window.fill('12.5');
    assert.equal(await complaint.textContent(), '"12.5" is not a whole number');
    assert.equal(await page.locator('.summary').textContent(), summary);
    assert.equal(await window.inputValue(), '12.5');
    // Reset: the value in force again, and no complaint about text now gone.
    await page.click('#reset');
    await complaint.waitFor({ state: 'hidden' });
    assert.equal(await window.inputValue(), initial);
    assert.equal(await window.getAttribute('aria-invalid'), null);
    // A good value is taken, and the link carries it.
    await window.fill('16000');
    await becomes(() => Promise.resolve(new URL(page.url()).searchParams.get('w')), '16000', 'the window in the link');
    assert.notEqual(await page.locator('.summary').textContent(), summary);
  } finally {
    await close();
  }
});

test('an unreadable link shows a notice and falls back to the defaults', async () => {
  const { context, close } = await freshContext();
  try {
    const page = await open(context, '?v=9&s=payments-incident');
    const text = await page.locator('.notice.problem').textContent();
    assert.match(text, /version 9/);
    assert.equal(await page.locator('#scenario').inputValue(), 'payments-incident');
    const bad = await open(context, '?v=1&s=payments-incident&r.sr=7');
    assert.match(await bad.locator('.notice.problem').textContent(), /r\.sr=7/);
  } finally {
    await close();
  }
});

test('the matrix loads a cell, and exports carry scenario and policy in their names', async () => {
  const { context, close } = await freshContext();
  try {
    const page = await open(context);
    await page.click('#tab-matrix');
    const cell = page.getByRole('button', { name: /^staging-migration under user_verbatim/ });
    await cell.click();
    await becomes(() => page.locator('#scenario').inputValue(), 'staging-migration', 'scenario');
    assert.equal(await page.locator('#policy').inputValue(), 'user_verbatim');
    await page.locator('.menu summary').click();
    for (const [button, name] of [
      ['#export-png', 'staging-migration-user-verbatim-timelines.png'],
      ['#export-svg', 'staging-migration-user-verbatim-timelines.svg'],
      ['#export-json', 'staging-migration-user-verbatim-result.json'],
      ['#export-csv', 'staging-migration-user-verbatim-actions.csv'],
    ]) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
      assert.equal(download.suggestedFilename(), name);
      const path = await download.path();
      assert.ok(path, `${name} was not saved`);
    }
  } finally {
    await close();
  }
});

test('a custom harness travels in the link; the compare view marks what differs', async () => {
  const first = await freshContext();
  let link;
  let outcomes;
  try {
    const page = await open(first.context, '?v=1&s=coding-day');
    await page.selectOption('#policy', 'codex_cli');
    await becomes(() => page.locator('#policy').inputValue(), 'codex_cli', 'policy');
    assert.match(await page.locator('.policy-source').textContent(), /openai\/codex/);
    // Adjusting a switch makes the policy custom.
    await page.locator('#sw-rereads').check();
    await becomes(() => page.locator('#policy').inputValue(), 'custom', 'policy');
    outcomes = await page.locator('tr[data-action] .outcome').allTextContents();
    await page.click('#copy-link');
    link = await page.locator('.link-box').inputValue();
    assert.match(link, /p=custom/);
    assert.match(link, /px=1/);

    // Compare: claude_code against openai_compact on the typed rule.
    await page.selectOption('#policy', 'claude_code');
    await page.click('#tab-compare');
    await page.selectOption('#compare-with', 'openai_compact');
    await page.waitForSelector('.compare-report tr[data-action="clean-data-dir"]');
    assert.equal(await page.locator('.compare-report tr[data-action="clean-data-dir"]').getAttribute('class'), 'differs');
    assert.equal(await page.locator('.compare-report tr[data-action="run-migration"]').getAttribute('class'), '');
    assert.equal(await page.locator('.compare-report tr[data-fact="keep-legacy-import"]').getAttribute('class'), 'differs');

    // A harness preset in a small window says so.
    await page.selectOption('#scenario', 'dependency-pin');
    await page.selectOption('#policy', 'claude_code');
    await page.waitForSelector('.note.warn:not([hidden])');
    assert.match(await page.locator('.note.warn').textContent(), /meant for windows of 100k tokens/);
  } finally {
    await first.close();
  }
  const second = await freshContext();
  try {
    const page = await open(second.context, link.slice(origin.length + 1));
    assert.equal(await page.locator('#policy').inputValue(), 'custom');
    assert.ok(await page.locator('#sw-rereads').isChecked());
    assert.ok(await page.locator('#protect-user').isChecked());
    assert.deepEqual(await page.locator('tr[data-action] .outcome').allTextContents(), outcomes);
  } finally {
    await second.close();
  }
});

test('"Fix it" writes the harness\'s remedy; applying it lowers the headline count, and the link and a reload keep it', async () => {
  const { context, close } = await freshContext();
  try {
    const page = await open(context);
    const count = () => headlineCount(page);
    const before = await count();
    assert.ok(before > 0, `${before} actions run without their rules`);
    await page.click('#tab-fix');
    await page.selectOption('#fix-harness', 'claude_code');
    await page.selectOption('#fix-remedy', 'claude_code.claude_md');
    // The remedy, written by the analysis worker: the CLAUDE.md section.
    await page.waitForFunction(() => document.querySelector('#fix-markdown')?.textContent.startsWith('# Claude Code: '));
    const md = await page.locator('#fix-markdown').textContent();
    assert.match(md, /## Rules that hold for the whole session/);
    assert.ok(await page.locator('#fix-download').isEnabled());
    // Modelled beside the run without it, with what changes marked.
    const counts = await page.locator('#fix-counts').textContent();
    assert.match(counts, new RegExp(`${before} without it, \\d+ with it`), counts);
    assert.ok(await page.locator('.fix-model tr.differs').count() > 0, 'no row marked as changed');
    // It says it models the remedy under Claude Code's preset, not the
    // policy on screen, and that the preset is out of its depth in 32k.
    assert.match(await page.locator('.fix-notes').textContent(), /the claude_code preset \(Claude Code\) in place of the scenario's policy \(pinned_prefix\)/);
    assert.equal(await page.locator('#fix-misfit').textContent(), 'Claude Code is meant for windows of 100k tokens and more; with 32,000 tokens it compacts 20 times in 70 turns.');
    // Applied: the headline counts fewer, and says a fix is on.
    await page.check('#fix-apply');
    await changed(count, before, 'the headline count');
    const after = await count();
    assert.ok(after < before, `${before} → ${after}`);
    assert.ok(await page.locator('#fix-applied').isVisible());
    // A reload (URL and localStorage) keeps it.
    await page.waitForTimeout(400);
    assert.match(page.url(), /f=claude_code\.claude_md/);
    await page.reload();
    await page.waitForSelector('.summary:not(:empty)');
    assert.equal(await count(), after);
    assert.ok(await page.locator('#fix-apply').isChecked());
    // Removed from the headline: the count is back.
    await page.click('#fix-applied button:has-text("Remove it")');
    await becomes(count, before, 'the headline count without the fix');
  } finally {
    await close();
  }
});

test('"Fix it" applies the Codex hook under the Codex preset on screen, and says where each preset comes from', async () => {
  const { context, close } = await freshContext();
  try {
    const page = await open(context, '?v=1&s=payments-incident&p=codex_cli');
    assert.equal(await page.locator('#policy').inputValue(), 'codex_cli');
    // What the preset approximates and its sources, written by the worker.
    await page.waitForFunction(() => document.querySelector('.policy-notes')?.textContent.includes('Source: openai/codex'));
    const count = () => headlineCount(page);
    const before = await count();
    await page.click('#tab-fix');
    // Codex's strongest remedy comes first: its SessionStart compact hook.
    assert.equal(await page.locator('#fix-harness').inputValue(), 'codex_cli');
    assert.equal(await page.locator('#fix-remedy').inputValue(), 'codex_cli.restate_hook');
    await page.waitForFunction(() => document.querySelector('#fix-markdown')?.textContent.startsWith('# Codex CLI: a SessionStart hook'));
    const md = await page.locator('#fix-markdown').textContent();
    assert.match(md, /drift hook codex --install --project --write/);
    assert.match(md, /\.codex\/hooks\.json:/);
    assert.match(md, /"command": "drift hook codex"/);
    assert.match(md, /PreCompact and PostCompact hooks cannot carry a rule/);
    // Modelled on the policy on screen: its counts agree with the headline.
    const notes = await page.locator('.fix-notes').textContent();
    assert.match(notes, /Both runs use the scenario's policy, the codex_cli preset/);
    const counts = await page.locator('#fix-counts').textContent();
    assert.match(counts, new RegExp(`${before} without it, \\d+ with it`), counts);
    await page.check('#fix-apply');
    await changed(count, before, 'the headline count');
    assert.ok((await count()) < before);
    await page.waitForTimeout(400);
    assert.match(page.url(), /f=codex_cli\.restate_hook/);
    // Another harness's preset, once the fix is removed: its own notes.
    await page.click('#fix-applied button:has-text("Remove it")');
    await becomes(count, before, 'the headline count without the fix');
    await page.selectOption('#policy', 'gemini_cli');
    await page.waitForFunction(() => document.querySelector('.policy-notes')?.textContent.includes('google-gemini/gemini-cli'));
  } finally {
    await close();
  }
});

test('links written with the earlier preset and remedy names still open', async () => {
  const { context, close } = await freshContext();
  try {
    const page = await open(context);
    const presets = ['none', 'sliding_window', 'recursive_summary', 'pinned_prefix', 'user_verbatim', 'externalised_state',
      'codex_cli', 'claude_code', 'openai_compact', 'openhands_summarizing', 'openhands_masking', 'letta_sliding', 'deepagents'];
    for (const p of presets) {
      await page.goto(`${origin}/?v=1&s=coding-day&p=${p}`);
      await page.waitForSelector('.summary:not(:empty)');
      assert.equal(await page.locator('#policy').inputValue(), p);
    }
    for (const f of ['codex_cli.compact_prompt', 'codex_cli.instructions', 'opencode.compacting_plugin', 'openhands_summarizing.keep_first', 'claude_code.restate_hook']) {
      await page.goto(`${origin}/?v=1&s=coding-day&f=${f}`);
      await page.waitForSelector('.summary:not(:empty)');
      assert.ok(await page.locator('#fix-applied').isVisible(), `${f} is applied`);
    }
  } finally {
    await close();
  }
});

test('ticking externalise under a policy that never re-reads says so by the box, and its switch makes it count', async () => {
  const { context, close } = await freshContext();
  try {
    const page = await open(context);
    const row = factRow(page, 'payments-freeze');
    const note = row.locator('.ext-note');
    assert.ok(await note.isHidden());
    await row.locator('input.externalise').check();
    await note.waitFor();
    assert.match(await note.textContent(), /Not counted: pinned prefix never re-reads externalised facts\./);
    assert.equal(await outcomeOf(page, 'rollback-payments'), 'ungoverned');
    await note.locator('button.reread').click();
    await becomes(() => page.locator('#policy').inputValue(), 'externalised_state', 'policy');
    await becomes(() => outcomeOf(page, 'rollback-payments'), 'governed', 'rollback outcome');
    assert.ok(await note.isHidden());
  } finally {
    await close();
  }
});

test('a dot on a fact row says whether that rule was there for the action, and the legend says what dots mean', async () => {
  const { context, close } = await freshContext();
  try {
    const page = await open(context);
    const legend = await page.locator('.timelines .legend').textContent();
    assert.match(legend, /an action it governs: the rule there/);
    assert.match(legend, /not there/);
    // The approval gate is in the system prompt, whole at turn 63; the
    // freeze a tool revealed is gone. The rollback fails for want of the freeze.
    const gate = factRow(page, 'approval-gate').locator('canvas');
    await becomes(async () => /Action at turn 63/.test((await gate.getAttribute('aria-label')) ?? ''), true, 'the gate row described');
    assert.match(await gate.getAttribute('aria-label'), /Action at turn 63 sees it at 1\.00: the rule was there word for word; the action is ungoverned\./);
    const freeze = factRow(page, 'payments-freeze').locator('canvas');
    assert.match(await freeze.getAttribute('aria-label'), /Action at turn 63 sees it at 0\.\d\d: the rule was not there; the action is ungoverned\./);
    // Hovering the gate's dot says the same, with how the action ended.
    const box = await gate.boundingBox();
    const x = box.x + 10 + (63 / 70) * (box.width - 20);
    await page.mouse.move(x, box.y + box.height / 2);
    const tip = factRow(page, 'approval-gate').locator('.tooltip');
    await tip.waitFor();
    assert.match(await tip.textContent(), /^turn 63: rollback-payments: the rule was there word for word \(1\.00\); the action is ungoverned\./);
  } finally {
    await close();
  }
});

test('exports keep their meaning: the CSV says why, the drawing carries a key and the user\'s edits in its title', async () => {
  const { context, close } = await freshContext();
  try {
    const page = await open(context);
    await factRow(page, 'payments-freeze').locator('input.externalise').check();
    await page.locator('.menu summary').click();
    const saved = async (button) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
      return readFileSync(await download.path(), 'utf8');
    };
    const csv = (await saved('#export-csv')).split('\r\n').filter((l) => l);
    assert.match(csv[0], /^action,turn,outcome,reason,why,/);
    for (const line of csv.slice(1)) {
      const [, , , reason, why] = line.split(',');
      assert.ok(reason, `no reason: ${line}`);
      assert.ok(why && why.length > 5, `no why: ${line}`);
    }
    assert.ok(csv.some((l) => l.startsWith('rollback-payments,63,ungoverned,faded,')), csv.join('\n'));
    const svg = await saved('#export-svg');
    assert.match(svg, />\s*payments-incident under pinned_prefix\s*</);
    assert.match(svg, />\s*edited: payments-freeze externalised\s*</);
    for (const key of ['fidelity', 'fabrication risk', 'actionable line', 'an action it governs: the rule there', 'not there']) {
      assert.match(svg, new RegExp(`>\\s*${key}\\s*<`), key);
    }
    // The PNG is drawn by the same code on the page.
    const [png] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
    assert.ok(statSync(await png.path()).size > 10_000);
  } finally {
    await close();
  }
});

test('the words a newcomer reads: the rounds table, a loaded log\'s name, no zero-token prompt, and rule words on a phone', async () => {
  const { context, close } = await freshContext({ viewport: { width: 390, height: 844 } });
  try {
    const page = await open(context);
    await page.click('#tab-rounds');
    const roundsTable = page.locator('.rounds table');
    await roundsTable.waitFor();
    const rounds = await roundsTable.textContent();
    assert.match(rounds, /already summarised/);
    assert.match(rounds, /untrusted: retold history/);
    assert.doesNotMatch(rounds, /laundering rate|fabricated history/);
    // The compare view's tables give each fact's and action's words.
    await page.click('#tab-compare');
    const fact = page.locator('.compare-facts tr[data-fact="payments-freeze"] .fact-words');
    await fact.waitFor();
    assert.match(await fact.textContent(), /freeze/i);
    const box = await fact.boundingBox();
    assert.ok(box.width > 40, `the words are ${box.width} px wide`);
    // The session page: a loaded file is named; no "about 0 tokens".
    await page.goto(`${origin}/session/`);
    await page.waitForSelector('#import-text');
    const log = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Never restart db-prod-01 without an approver on the call.' }] },
      { type: 'function_call', call_id: 'c1', name: 'shell', arguments: JSON.stringify({ command: 'kubectl rollout restart statefulset/db-prod-01' }) }];
    await page.setInputFiles('#import-file', { name: 'night.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(log)) });
    await page.waitForSelector('table.guesses.facts tr[data-fact]');
    assert.match(await page.locator('#import-file-name').textContent(), /^Loaded: night\.json \(\d+ bytes\)$/);
    assert.match(await page.locator('.import-summary').textContent(), /no system prompt/);
    assert.doesNotMatch(await page.locator('.import-summary').textContent(), /about 0 tokens/);
    // On a phone the guessed rule's sentence is on screen, not scrolled off.
    const sentence = page.locator('table.guesses.facts tr[data-fact] td.fact-sentence').first();
    assert.match(await sentence.textContent(), /Never restart db-prod-01/);
    const s = await sentence.boundingBox();
    assert.ok(s.x >= 0 && s.x + s.width <= 390 + 1, `the sentence is at ${s.x}..${s.x + s.width}`);
  } finally {
    await close();
  }
});

test('the audit page reports a sample compaction and highlights each finding in both texts', async () => {
  const { context, close } = await freshContext();
  try {
    const page = await open(context);
    await page.click('a.tab-link');
    await page.waitForSelector('#tab-audit');
    assert.match(page.url(), /\/session\/$/);
    await page.click('#tab-audit');
    await page.waitForSelector('#audit-sample');
    await page.click('#audit-sample');
    await page.waitForSelector('.audit-verdict.problem');
    for (const section of ['dropped', 'unsupported', 'changed-id', 'reasoning']) {
      const items = await page.locator(`.findings.${section} li`).count();
      assert.ok(items >= 1, `no ${section} finding`);
    }
    // The dropped pin is marked in BEFORE; the sentence breaking it in AFTER.
    const pin = page.locator('.findings.dropped li', { hasText: 'bump' }).first();
    assert.ok(await pin.count(), 'the dropped pin is not listed');
    const id = await pin.getAttribute('data-finding');
    await pin.hover();
    const marks = page.locator(`mark[data-finding="${id}"]`);
    assert.ok((await marks.count()) >= 2, `finding ${id} is not marked in both texts`);
    assert.equal(await page.locator(`mark.active[data-finding="${id}"]`).count(), await marks.count());

    // An unreadable transcript (a record that is no object) names its
    // line, and the report says so.
    await page.setInputFiles('#audit-before-file', {
      name: 'session.jsonl',
      mimeType: 'application/json',
      buffer: Buffer.from('{"type":"message","role":"user","content":"hi"}\n[1, 2]\n'),
    });
    const error = page.locator('.audit-report .control-error');
    await error.waitFor();
    assert.match(await error.textContent(), /line 2/);

    // Both texts pasted in quick succession: each is read, neither edit
    // cancels the other.
    await page.evaluate(() => {
      for (const [id, text] of [
        ['#audit-before', 'Never run the migration on db-prod-01 without a backup.'],
        ['#audit-after', 'The migration ran on db-prod-01.'],
      ]) {
        const box = document.querySelector(id);
        box.value = text;
        box.dispatchEvent(new Event('input', { bubbles: true }));
      }
    });
    await page.waitForSelector('.audit-verdict.problem');
    assert.match(await page.locator('.findings.dropped').textContent(), /without a backup/);
  } finally {
    await close();
  }
});

test('a session log imports as guesses; an edited guess changes the outcome, and the simulator opens it', async () => {
  // A Responses-items log: a typed rule, eighty large tool outputs, then a
  // restart of the resource the rule names.
  const log = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Never restart db-prod-01 without an approver on the call.' }] }];
  for (let i = 0; i < 80; i++) {
    log.push({ type: 'function_call', call_id: `c${i}`, name: 'shell', arguments: JSON.stringify({ command: `cat logs/part-${i}.log` }) });
    log.push({ type: 'function_call_output', call_id: `c${i}`, output: `line ${i}: request served in 12 ms\n`.repeat(250) });
  }
  log.push({ type: 'function_call', call_id: 'last', name: 'shell', arguments: JSON.stringify({ command: 'kubectl rollout restart statefulset/db-prod-01' }) });
  const { context, close } = await freshContext();
  try {
    const page = await open(context);
    await page.click('a.tab-link');
    await page.waitForSelector('#import-text');
    await page.fill('#import-window', '40000');
    await page.locator('#import-window').dispatchEvent('change');
    await page.selectOption('#import-policy', 'pinned_prefix');
    await page.setInputFiles('#import-file', { name: 'session.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(log)) });
    await page.waitForSelector('table.guesses.facts tr[data-fact]');
    assert.match(await page.locator('.import-summary').textContent(), /OpenAI Responses items/);
    assert.equal(await page.locator('table.guesses .badge.guess').count(), 2);
    const outcome = () => page.locator('.import-results tr[data-action] .outcome').first().textContent();
    assert.equal(await outcome(), 'ungoverned');
    // The rule, read as task state, keeps better: the restart is governed again (weakly).
    await page.locator('table.guesses.facts select').first().selectOption('task_state');
    await becomes(outcome, 'weakly governed', 'the restart');
    // Dropping the rule leaves the restart governed by nothing: it is not simulated.
    const keep = page.locator('table.guesses.facts input[type=checkbox]').first();
    await keep.click();
    await page.waitForSelector('table.guesses.facts tr.dropped');
    await page.waitForSelector('.import-results .note:has-text("governed by nothing")');
    await keep.click();
    await becomes(outcome, 'weakly governed', 'the restart');
    // The edited scenario opens in the simulator.
    await page.click('#open-in-simulator');
    await page.waitForSelector('.summary:not(:empty)');
    assert.match(page.url(), /sz=/);
    assert.equal(await page.locator('tr[data-action] .outcome').first().textContent(), 'weakly governed');
  } finally {
    await close();
  }
});

test('a Claude Code log lists its compactions rule by rule, and the retention they measured opens in the simulator', async () => {
  const { context, close } = await freshContext();
  try {
    const page = await open(context);
    await page.click('a.tab-link');
    await page.waitForSelector('#import-text');
    await page.setInputFiles('#import-file', `${here}../../crates/drift-session/tests/transcripts/formats/claude-code-2.1.jsonl`);
    const compaction = page.locator('.compactions details.compaction[data-line="56"]');
    await compaction.waitFor();
    assert.match(await compaction.locator(':scope > summary').textContent(), /^line 56 · auto · 167,412 tokens before — .*dropped/);
    // A compaction that lost rules opens on them; the carried ones fold.
    assert.equal(await compaction.getAttribute('open'), '');
    assert.ok(await compaction.locator('ul.lost li.fate-dropped').first().isVisible(), 'no dropped rule shown');
    assert.ok(await compaction.locator('ul.lost li.fate-weakened').count() > 0, 'no weakened rule listed');
    assert.match(await compaction.locator('p.fix').first().textContent(), /^Fix: /);
    assert.equal(await compaction.locator('details.carried li').first().isVisible(), false);
    assert.match(await compaction.locator('details.from-tools > summary').textContent(), /data, not instructions/);
    // The retention its summaries showed, carried into the simulator by the link.
    await page.click('#use-measured-retention');
    await page.waitForSelector('.summary:not(:empty)');
    assert.match(page.url(), /[?#&]r\.[a-z]+=0?\.\d+/);
  } finally {
    await close();
  }
});

/** The largest Claude Code main-session log in `dir` with exactly two
 *  compactions (two boundaries, two summaries), or null. */
function largestLogCompactingTwice(dir) {
  if (!existsSync(dir)) return null;
  let best = null;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith('claude-') || !name.endsWith('.jsonl') || name.includes('-agent-')) continue;
    const path = `${dir}/${name}`;
    const text = readFileSync(path, 'utf8');
    const count = (marker) => text.split(marker).length - 1;
    if (count('"isCompactSummary":true') !== 2 || count('"subtype":"compact_boundary"') !== 2) continue;
    const size = statSync(path).size;
    if (!best || size > best.size) best = { path, size };
  }
  return best?.path ?? null;
}

test('a real log with two compactions: its rules across them, the model beside the log, and its rounds at the real compactions in the simulator', async () => {
  // A session someone committed to a public repository (../shared/real-logs,
  // see its SOURCES.md), chosen there at test time and never copied into
  // this repository: the largest Claude Code session of its own (no
  // subagent's) that compacts exactly twice.
  const real = largestLogCompactingTwice(`${here}../../../shared/real-logs`);
  if (!real) {
    console.log('  skipped: no real log with two compactions at ../shared/real-logs');
    return;
  }
  const { context, close } = await freshContext();
  try {
    const page = await open(context);
    await page.click('a.tab-link');
    await page.waitForSelector('#import-file');
    await page.setInputFiles('#import-file', real);
    await page.waitForSelector('.compactions details.lineage svg', { timeout: 60000 });
    assert.equal(await page.locator('.compactions details.compaction').count(), 2);
    assert.match(await page.locator('.compactions details.lineage svg').innerHTML(), /Your rules across 2 compactions/);
    // Each compaction leads with what it lost, with the fix, or says it
    // lost none of the user's rules.
    for (const c of await page.locator('.compactions details.compaction').all()) {
      const lost = await c.locator('ul.lost li').count();
      if (lost > 0) {
        assert.match(await c.locator('p.fix').first().textContent(), /^Fix: /);
      } else {
        const none = await c.locator('p.note', { hasText: 'Lost: none of your rules' }).count();
        const unreadable = /unreadable/.test(await c.locator(':scope > summary').textContent());
        assert.ok(none || unreadable, 'neither lost rules, nor "none", nor unreadable');
      }
    }
    // The model beside the log: one row per rule, a cell per compaction.
    await page.waitForSelector('.beside-log table.beside tbody tr');
    assert.match(await page.locator('.beside-summary').textContent(), /agree on whether a rule is carried in \d+ of \d+/);
    assert.equal(await page.locator('.beside-log table.beside thead th').count(), 3);
    // The retention measured here opens the same session in the simulator,
    // its two rounds where the log compacted.
    await page.click('#use-measured-retention');
    await page.waitForSelector('.summary:not(:empty)');
    await page.click('#tab-rounds');
    await page.waitForSelector('.rounds table tbody tr');
    const turns = await page.locator('.rounds table tbody tr td:nth-child(2)').allTextContents();
    assert.equal(turns.length, 2, `rounds at ${turns}`);
    assert.ok(Number(turns[0]) > 0 && Number(turns[1]) > Number(turns[0]), `rounds at ${turns}`);
  } finally {
    await close();
  }
});

test('a large session log is read aside and named, not pasted; a broken one names its line and keeps what was read', async () => {
  // A Codex-style JSON-lines log of about 1.5 MB.
  const lines = [JSON.stringify({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Do not force-push to main; the release branch is frozen until Monday.' }] })];
  for (let i = 0; i < 400; i++) {
    lines.push(JSON.stringify({ type: 'function_call', call_id: `c${i}`, name: 'shell', arguments: JSON.stringify({ command: `cat build-${i}.log` }) }));
    lines.push(JSON.stringify({ type: 'function_call_output', call_id: `c${i}`, output: `step ${i} compiled in 3 s\n`.repeat(150) }));
  }
  lines.push(JSON.stringify({ type: 'function_call', call_id: 'push', name: 'shell', arguments: JSON.stringify({ command: 'git push --force origin main' }) }));
  const big = Buffer.from(lines.join('\n'));
  assert.ok(big.length > 1_000_000, `${big.length} bytes`);
  const { context, close } = await freshContext();
  try {
    const page = await open(context);
    await page.click('a.tab-link');
    await page.waitForSelector('#import-file');
    await page.setInputFiles('#import-file', { name: 'big-session.jsonl', mimeType: 'application/json', buffer: big });
    await page.waitForSelector('table.guesses.facts tr[data-fact]');
    assert.equal(await page.locator('#import-text').inputValue(), '');
    assert.match(await page.locator('#import-text').getAttribute('placeholder'), /^big-session\.jsonl \(1\.\d MB\) is loaded/);
    assert.match(await page.locator('table.guesses.actions').textContent(), /git push --force origin main/);
    await page.waitForSelector('.progress[hidden]', { state: 'attached' });
    // A log whose third record is no object: the error names the line, the
    // guesses stay.
    const broken = `${lines[0]}\n${lines[1]}\n[1, 2]\n`;
    await page.setInputFiles('#import-file', { name: 'broken.jsonl', mimeType: 'application/json', buffer: Buffer.from(broken) });
    await page.waitForSelector('.control-error:not([hidden])');
    assert.match(await page.locator('.control-error').textContent(), /^The transcript could not be read: .*line 3/);
    assert.match(await page.locator('table.guesses.actions').textContent(), /git push --force origin main/);
    // A torn line (a write interrupted, the next record spliced into it) is
    // skipped and named; the rest of the log is read.
    const torn = `${lines[0]}\n{"type": "message", "role":\n${lines.slice(-1)[0]}\n`;
    await page.setInputFiles('#import-file', { name: 'torn.jsonl', mimeType: 'application/json', buffer: Buffer.from(torn) });
    await page.waitForFunction(() => /line 2 could not be read \(a torn line\)/.test(document.querySelector('.import-summary')?.textContent ?? ''));
    assert.match(await page.locator('table.guesses.actions').textContent(), /git push --force origin main/);
    // The big log again, for the link below.
    await page.setInputFiles('#import-file', { name: 'big-session.jsonl', mimeType: 'application/json', buffer: big });
    await page.waitForFunction(() => /big-session/.test(document.querySelector('#import-text')?.getAttribute('placeholder') ?? ''));
    await page.waitForSelector('.progress[hidden]', { state: 'attached' });
    // Its 800 turns are too long a link for a server: the state goes in the
    // fragment, which the page reads, a reload keeps, and a fresh browser opens.
    await page.click('#open-in-simulator');
    await page.waitForSelector('.summary:not(:empty)');
    const url = page.url();
    // Compressed (lz-string), the whole session fits in a link a person
    // can send: a few kilobytes, in the fragment when over 2,000 characters.
    assert.match(url, url.length > 2100 ? /\/#v=1&sz=/ : /\/\?v=1&sz=/);
    assert.ok(url.length < 16_000, `the link is ${url.length} characters`);
    const summary = await page.locator('.summary').textContent();
    assert.match(summary, /of 1 action/);
    await page.reload();
    await page.waitForSelector('.summary:not(:empty)');
    assert.equal(await page.locator('.summary').textContent(), summary);
    const fresh = await freshContext();
    try {
      const other = await open(fresh.context, url.slice(origin.length + 1));
      assert.equal(await other.locator('.summary').textContent(), summary);
      assert.equal(other.url(), url);
    } finally {
      await fresh.close();
    }
  } finally {
    await close();
  }
});

test('without its workers the simulator says what is unavailable and a session log is read on the page', async () => {
  // Not through `open`: the blocked loads are console errors by design here.
  const { context, close } = await freshContext();
  try {
    // Worker loaders are asked for with the page's build version, so a new
    // page never starts a worker the browser cached from an earlier build.
    const blocked = [];
    await context.route(/_loader\.js(\?|$)/, (route) => {
      blocked.push(route.request().url());
      return route.abort();
    });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${origin}/`);
    await page.waitForSelector('.summary:not(:empty)');
    const tips = page.locator('tr[data-action="rollback-payments"] td.tips');
    await becomes(async () => (await tips.textContent()).startsWith('unavailable: the worker stopped'), true, 'the rollback\'s tipping points');
    assert.equal(await outcomeOf(page, 'rollback-payments'), 'ungoverned');
    // New settings do not wait for it forever: it stays unavailable.
    await page.selectOption('#policy', 'user_verbatim');
    await page.waitForTimeout(400);
    assert.match(await tips.textContent(), /^unavailable: the worker stopped/);
    await page.click('a.tab-link');
    await page.waitForSelector('#import-text');
    await page.fill('#import-text', 'Never restart db-prod-01 without an approver.\n\nsystemctl restart db-prod-01');
    await page.locator('#import-text').dispatchEvent('change');
    await page.waitForSelector('table.guesses.facts tr[data-fact]');
    assert.match(await page.locator('.import-summary').textContent(), /^Read as plain text/);
    assert.deepEqual(errors, []);
    assert.equal(blocked.length, 2, blocked.join(' '));
    assert.match(blocked[0], /\/drift-analysis_loader\.js\?v=[0-9a-f]+$/);
    assert.match(blocked[1], /\/session\/drift-import_loader\.js\?v=[0-9a-f]+$/);
  } finally {
    await close();
  }
});

test('timelines are sharp at two device pixels per CSS pixel, follow a resize, and keep to the dark theme', async () => {
  const { context, close } = await freshContext({ deviceScaleFactor: 2, colorScheme: 'dark' });
  try {
    const page = await open(context);
    const canvas = () => page.evaluate(() => {
      const c = document.querySelector('.row[data-fact] canvas');
      const r = c.getBoundingClientRect();
      return { width: c.width, height: c.height, cssWidth: r.width, cssHeight: r.height };
    });
    const sharp = (c) => Math.abs(c.width - c.cssWidth * 2) <= 1 && Math.abs(c.height - c.cssHeight * 2) <= 1;
    const wide = await canvas();
    assert.ok(sharp(wide), JSON.stringify(wide));
    await page.setViewportSize({ width: 700, height: 900 });
    await becomes(async () => { const c = await canvas(); return c.cssWidth !== wide.cssWidth && sharp(c); }, true, 'the resized canvas');
    // Dark theme: the charts paint no background over the dark page (they
    // are mostly transparent), and their axes and labels are in light ink.
    const ink = await page.evaluate(() => [...document.querySelectorAll('.fill-row canvas, .row[data-fact] canvas')].map((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let opaque = 0, light = 0, dark = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i + 3] <= 200) continue;
        opaque += 1;
        const sum = d[i] + d[i + 1] + d[i + 2];
        if (sum > 690) light += 1;
        if (sum < 100) dark += 1;
      }
      return { opaque: opaque / (d.length / 4), light, dark };
    }));
    assert.ok(ink.length >= 7 && ink.every((c) => c.opaque < 0.5), JSON.stringify(ink));
    assert.ok(ink[0].light > 10 * ink[0].dark, `context fill ink: ${JSON.stringify(ink[0])}`);
  } finally {
    await close();
  }
});

test('screenshots at 1280 px and 390 px', async () => {
  for (const [width, path] of [
    [1280, `${here}artifacts/screenshot-1280.png`],
    [390, `${here}artifacts/screenshot-390.png`],
  ]) {
    const { context, close } = await freshContext({ viewport: { width, height: 900 } });
    try {
      const page = await open(context);
      await page.waitForTimeout(200);
      // Nothing may overflow the viewport sideways.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `${width} px: the page is ${overflow} px too wide`);
      await page.screenshot({ path, fullPage: width !== 1280 });
      if (width === 1280 && process.env.DRIFT_UPDATE_SCREENSHOT === '1') {
        await copyFile(path, `${here}../../assets/screenshot.png`);
      }
    } finally {
      await close();
    }
  }
});

// DRIFT_E2E_ONLY=text runs only the tests whose names contain it.
const only = process.env.DRIFT_E2E_ONLY;
const chosen = only ? tests.filter((t) => t.name.includes(only)) : tests;
let failed = 0;
for (const { name, fn } of chosen) {
  const start = Date.now();
  try {
    await fn();
    console.log(`ok    ${name} (${Date.now() - start} ms)`);
  } catch (e) {
    failed += 1;
    console.log(`FAIL  ${name}\n      ${String(e.stack ?? e).split('\n').slice(0, 6).join('\n      ')}`);
  }
}
if (problems.length) {
  failed += 1;
  console.log(`FAIL  pages stayed clean:\n      ${problems.join('\n      ')}`);
} else {
  console.log('ok    no console errors or warnings, no request left the origin');
}
await server.close();
console.log(`\n${chosen.length - failed + (problems.length ? 0 : 1)} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
