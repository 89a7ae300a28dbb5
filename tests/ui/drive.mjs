// Drives one question page in headless Chromium (Debian's /usr/bin/chromium through
// playwright-core; no browser download). Usage: node drive.mjs URL STEPS_JSON
// Steps: {click}, {fill:[id,text]}, {select:[id,value]}, {exec:[program,...args]} (runs a
// command meanwhile, as another machine or process would act), {expectDisabled}, {expectEnabled}, {expectChecked:[id,bool]}, {expectText:[id,text]},
// {expectCountdownAbove:n}, {open:url}; the keyboard: {tabTo:id} (Tab until that element
// has the focus, at most 80 presses), {press:key}, {type:text}; {expectNone:selector}; the screen: {viewport:[w,h]},
// {theme:"light"|"dark"}, {fitsWidth:true} (no sideways scrolling), {axe:name} (axe-core
// finds no violation; the page is also saved as name.png in MOORING_SCREENSHOTS when set);
// {expectAsked:path} / {expectNotAsked:path} (a request path the page made, or did not);
// {pageHasNo:text} (nothing a person reads on the page says it), {maxHeight:px} (the
// whole page is at most that tall), {shot:name} (saved as name.png in MOORING_SCREENSHOTS).
// Prints {"ok":true} or exits 1 with the reason.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

// playwright-core lives in the test-tools cache, not beside this file.
const require = createRequire(`${process.env.MOORING_UI_TOOLS}/`);
const { chromium } = require("playwright-core");

const [url, stepsJson] = process.argv.slice(2);
const steps = JSON.parse(stepsJson);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const page = await browser.newPage();
// A page's confirm() is the person saying yes (a test that means no does not click).
page.on("dialog", (d) => d.accept());
const el = (id) => page.locator(`[data-testid="${id}"]`);
// Every path the page asked the server for, and anything the page's Content-Security-
// Policy blocked (a page the policy breaks fails here, whatever the steps check).
const asked = [];
page.on("request", (r) => { const u = new URL(r.url()); asked.push(u.pathname + u.search); });
const blocked = [];
page.on("console", (m) => { if (/Content.Security.Policy/i.test(m.text())) blocked.push(m.text()); });
try {
  await page.goto(url);
  for (const s of steps) {
    if (s.open) await page.goto(new URL(s.open, url).href);
    else if (s.click) await el(s.click).click();
    else if (s.clickSelector) await page.locator(s.clickSelector).click();
    else if (s.expectNoText) await page.waitForFunction(([id, t]) => !(document.querySelector(`[data-testid="${id}"]`)?.textContent || "").includes(t), s.expectNoText, { timeout: 8000 });
    else if (s.fill) await el(s.fill[0]).fill(s.fill[1]);
    else if (s.select) await el(s.select[0]).selectOption(s.select[1]);
    else if (s.exec) execFileSync(s.exec[0], s.exec.slice(1), { stdio: "ignore" });
    else if (s.expectDisabled) await page.waitForFunction((id) => document.querySelector(`[data-testid="${id}"]`)?.disabled === true, s.expectDisabled, { timeout: 5000 });
    else if (s.expectEnabled) await page.waitForFunction((id) => document.querySelector(`[data-testid="${id}"]`)?.disabled === false, s.expectEnabled, { timeout: 5000 });
    else if (s.expectChecked) await page.waitForFunction(([id, on]) => document.querySelector(`[data-testid="${id}"]`)?.checked === on, s.expectChecked, { timeout: 5000 });
    else if (s.expectText) await page.waitForFunction(([id, t]) => (document.querySelector(`[data-testid="${id}"]`)?.textContent || "").includes(t), s.expectText, { timeout: 8000 });
    else if (s.tabTo) {
      let n = 0;
      while (!(await page.evaluate((id) => document.activeElement?.dataset?.testid === id, s.tabTo))) {
        if (++n > 80) throw new Error(`Tab never reached ${s.tabTo}`);
        await page.keyboard.press("Tab");
      }
    } else if (s.press) await page.keyboard.press(s.press);
    else if (s.type) await page.keyboard.type(s.type);
    else if (s.expectNone) {
      const n = await page.locator(s.expectNone).count();
      if (n) throw new Error(`${n} element(s) match ${s.expectNone}`);
    }
    else if (s.viewport) await page.setViewportSize({ width: s.viewport[0], height: s.viewport[1] });
    else if (s.theme) await page.emulateMedia({ colorScheme: s.theme });
    else if (s.fitsWidth) {
      // Let a refresh finish before measuring.
      await page.waitForTimeout(300);
      const [scroll, view] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      if (scroll > view) throw new Error(`the page scrolls sideways: ${scroll} px wide in a ${view} px window`);
    } else if (s.axe) {
      await page.waitForTimeout(300);
      // Evaluated through the DevTools protocol, which the page's Content-Security-Policy
      // does not govern (an injected <script> tag it would rightly block).
      const axeSource = readFileSync(`${process.env.MOORING_UI_TOOLS}/node_modules/axe-core/axe.min.js`, "utf8");
      await page.evaluate(axeSource);
      const found = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ["violations"] })).violations);
      if (process.env.MOORING_SCREENSHOTS) await page.screenshot({ path: `${process.env.MOORING_SCREENSHOTS}/${s.axe}.png`, fullPage: true });
      if (found.length) throw new Error(`axe-core on ${s.axe}: ${found.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`).join("; ")}`);
    } else if (s.expectCountdownAbove !== undefined) await page.waitForFunction((n) => Number(document.querySelector('[data-testid="countdown"]')?.dataset.seconds) > n, s.expectCountdownAbove, { timeout: 8000 });
    else if (s.expectAsked) {
      await page.waitForFunction(() => true).then(() => page.waitForTimeout(800));
      if (!asked.some((p) => p.startsWith(s.expectAsked))) throw new Error(`the page never asked for ${s.expectAsked}: ${asked.join(" ")}`);
    } else if (s.expectNotAsked) {
      await page.waitForTimeout(800);
      const hit = asked.filter((p) => p.startsWith(s.expectNotAsked));
      if (hit.length) throw new Error(`the page asked for ${hit.join(" ")}`);
    }
    else if (s.pageHasNo !== undefined) {
      await page.waitForTimeout(300);
      const text = await page.evaluate(() => document.body.innerText);
      const at = text.indexOf(s.pageHasNo);
      if (at >= 0) throw new Error(`the page shows ${JSON.stringify(s.pageHasNo)}: …${text.slice(Math.max(0, at - 80), at + 80)}…`);
    } else if (s.maxHeight) {
      await page.waitForTimeout(300);
      const h = await page.evaluate(() => document.documentElement.scrollHeight);
      if (h > s.maxHeight) throw new Error(`the page is ${h} px tall, more than ${s.maxHeight}`);
    } else if (s.shot) {
      if (process.env.MOORING_SCREENSHOTS) await page.screenshot({ path: `${process.env.MOORING_SCREENSHOTS}/${s.shot}.png`, fullPage: true });
    }
    else throw new Error(`unknown step ${JSON.stringify(s)}`);
  }
  if (blocked.length) throw new Error(`the Content-Security-Policy blocked: ${blocked.join(" | ")}`);
  console.log(JSON.stringify({ ok: true }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, error: String(e), step: e.step }));
  await page.screenshot({ path: process.env.SCREENSHOT || "/tmp/mooring-ui-failure.png", fullPage: true }).catch(() => {});
  process.exitCode = 1;
} finally {
  await browser.close();
}
