// Plays an MCP Apps host against a real Mooring: the official TypeScript client talks to
// the server, the official host bridge (@modelcontextprotocol/ext-apps AppBridge) runs in
// headless Chromium (Debian's, through playwright-core) and draws Mooring's `ui://` apps
// in a sandboxed frame, as Claude, VS Code or Goose do. Usage: node apps_host.mjs MCP_URL DATA_DIR
// Prints {"ok":true,...} or {"ok":false,"error":...} and exits 1.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const ui = createRequire(`${process.env.MOORING_UI_TOOLS}/`);
const apps = createRequire(`${process.env.MOORING_APPS_TOOLS}/`);
const { chromium } = ui("playwright-core");
const esbuild = apps("esbuild");
const { Client, StreamableHTTPClientTransport } = await import(apps.resolve("@modelcontextprotocol/client"));

const [url, dataDir] = process.argv.slice(2);
const APP_MIME = "text/html;profile=mcp-app";
const facts = {};
const check = (cond, why) => { if (!cond) throw new Error(why); };

async function client(name, withApps) {
  const capabilities = withApps ? { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [APP_MIME] } } } : {};
  const c = new Client({ name, version: "1.0.0" }, { capabilities });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

// The host page: the bridge bundled for the browser, the app in a sandboxed frame.
const bundle = (await esbuild.build({
  stdin: {
    contents: `import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
               window.ext = { AppBridge, PostMessageTransport };`,
    resolveDir: `${process.env.MOORING_APPS_TOOLS}/node_modules`,
  },
  bundle: true, write: false, format: "iife", platform: "browser", logLevel: "silent",
})).outputFiles[0].text;
const HOST_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title></head>
<body><main><h1>Conversation</h1><iframe title="Mooring" sandbox="allow-scripts allow-forms" style="width:300px;height:640px;border:0"></iframe></main>
<script>${bundle.replaceAll("</script", "<\\/script")}</script>
<script>
  window.start = async (html, args, theme) => {
    const frame = document.querySelector("iframe");
    const variables = theme === "dark"
      ? { "--color-background-primary": "#1e1e1e", "--color-text-primary": "#f5f5f5" }
      : { "--color-background-primary": "#fafafa", "--color-text-primary": "#1a1a1a" };
    const bridge = new ext.AppBridge(null, { name: "test-host", version: "1.0.0" },
      { serverTools: {}, updateModelContext: { text: {} }, openLinks: {} },
      { hostContext: { theme, styles: { variables }, displayMode: "inline", availableDisplayModes: ["inline"] } });
    bridge.oncalltool = (params) => window.hostCallTool(params);
    bridge.onupdatemodelcontext = async (params) => { await window.hostModelContext(params); return {}; };
    bridge.oninitialized = () => { window.initialized = true; bridge.sendToolInput({ arguments: args }); };
    window.bridge = bridge;
    // Listening before the app loads: it says ui/initialize as soon as it runs.
    await bridge.connect(new ext.PostMessageTransport(frame.contentWindow, frame.contentWindow));
    frame.srcdoc = html;
  };
</script></body></html>`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"],
});
let page;
try {
  const host = await client("test-host", true);
  const plain = await client("plain-client", false);

  // The tool list: links and app-only tools for a host that renders apps, none otherwise.
  const hostTools = (await host.listTools()).tools;
  const plainTools = (await plain.listTools()).tools;
  const choice = hostTools.find((t) => t.name === "provide_choice");
  check(choice._meta?.ui?.resourceUri === "ui://mooring/choice.html", `provide_choice _meta: ${JSON.stringify(choice._meta)}`);
  check(choice._meta?.["ui/resourceUri"] === "ui://mooring/choice.html", "the flat key is written too");
  const appOnly = hostTools.filter((t) => JSON.stringify(t._meta?.ui?.visibility) === '["app"]').map((t) => t.name).sort();
  check(appOnly.join() === "answer_question_in_app,pick_project_in_app", `app-only tools: ${appOnly}`);
  check(plainTools.every((t) => !t._meta), "a client without apps sees no UI metadata");
  check(!plainTools.some((t) => appOnly.includes(t.name)), "a client without apps is not offered the app-only tools");
  check(hostTools.length === plainTools.length + 2, `${hostTools.length} against ${plainTools.length}`);
  facts.tools = { host: hostTools.length, plain: plainTools.length };

  // The app-only tool is refused from an ordinary session.
  const refused = await plain.callTool({ name: "answer_question_in_app", arguments: { question: { title: "x", prompt: "y" } } });
  check(refused.isError && /renders MCP Apps/.test(refused.structuredContent?.error?.message), `refused: ${JSON.stringify(refused)}`);

  page = await browser.newPage();
  const logs = [];
  page.on("console", (m) => logs.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => logs.push(`error: ${e.message}`));
  facts.logs = logs;
  await page.exposeFunction("hostCallTool", (params) => host.callTool(params));
  const context = [];
  await page.exposeFunction("hostModelContext", (params) => { context.push(params); });
  const frame = () => page.frameLocator("iframe");
  const render = async (uri, args, theme = "light") => {
    const r = await host.readResource({ uri });
    check(r.contents[0].mimeType === APP_MIME, `${uri}: ${r.contents[0].mimeType}`);
    check(r.contents[0].text.length < 30_000, `${uri} is ${r.contents[0].text.length} bytes`);
    await page.setContent(HOST_PAGE);
    await page.evaluate(([html, a, t]) => window.start(html, a, t), [r.contents[0].text, args, theme]);
  };
  const axe = async (name) => {
    const f = page.frames().find((x) => x !== page.mainFrame());
    await f.addScriptTag({ path: `${process.env.MOORING_UI_TOOLS}/node_modules/axe-core/axe.min.js` });
    const found = await f.evaluate(async () => (await window.axe.run(document, { resultTypes: ["violations"] })).violations);
    if (process.env.MOORING_SCREENSHOTS) await page.screenshot({ path: `${process.env.MOORING_SCREENSHOTS}/${name}.png` });
    check(!found.length, `axe-core on ${name}: ${found.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`).join("; ")}`);
  };

  // A question, drawn from the tool's input while provide_choice waits, answered in it.
  const question = {
    title: "Which cache for sessions?",
    prompt: "Sessions are lost on restart; pick where they live. Needed before the deploy.",
    selection_mode: "multi",
    min_selections: 1,
    max_selections: 2,
    options: [
      { id: "redis", label: "Redis", description: "A separate service; survives restarts", recommended: true },
      { id: "sqlite", label: "SQLite", description: "A file beside the app" },
      { id: "memory", label: "In memory", description: "As today" },
    ],
    allow_global_annotation: true,
  };
  const asked = host.callTool({ name: "provide_choice", arguments: question }, undefined, { timeout: 120_000 });
  for (const theme of ["light", "dark"]) {
    await render("ui://mooring/choice.html", question, theme);
    await frame().getByText("Which cache for sessions?").waitFor({ timeout: 10_000 });
    check(await frame().getByLabel("Redis").isChecked(), "the recommended option is preselected");
    check(await frame().getByText("A file beside the app").isVisible(), "descriptions are shown");
    check(await frame().getByText("Recommended").isVisible(), "the recommended badge is shown");
    check(/\d+s left/.test(await frame().locator("#left").textContent()), "a countdown runs");
    await axe(`app-choice-${theme}`);
    const [scroll, view] = await page.frames()[1].evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
    check(scroll <= view, `the question scrolls sideways in a 300 px column: ${scroll} > ${view}`);
  }
  facts.theme_applied = await page.frames()[1].evaluate(() => document.documentElement.dataset.theme);
  check(facts.theme_applied === "dark", `theme ${facts.theme_applied}`);
  // From the keyboard: Tab from the first option reaches the next, Space ticks it.
  await frame().getByLabel("Redis").focus();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Space");
  check(await frame().getByLabel("SQLite").isChecked(), "Tab and Space choose an option");
  await frame().getByLabel("Note (optional)").fill("Keep it simple for now");
  await frame().getByRole("button", { name: "Answer" }).click();
  const answered = await asked;
  // As hosts do when a call ends: the app gets the result too.
  await page.evaluate((r) => window.bridge.sendToolResult(r), answered);
  const s = answered.structuredContent;
  check(s.action_status === "selected", `answer: ${JSON.stringify(s)}`);
  check(s.selection.selected_ids.sort().join() === "redis,sqlite", `ids ${s.selection.selected_ids}`);
  check(s.selection.global_annotation === "Keep it simple for now", "the note reaches the agent");
  check(s.surface === "app", `answered on ${s.surface}`);
  await frame().getByText(/Redis/).first().waitFor();
  check(context.some((c) => /answered Mooring's question/.test(c.content?.[0]?.text)), "the model is told through ui/update-model-context");
  facts.choice = s.selection.summary;

  // A second answer with the same token changes nothing (single use, first answer wins).
  const replay = await host.callTool({ name: "answer_question_in_app", arguments: { question } });
  check(replay.isError || replay.structuredContent?.response?.action_status === "selected", "the question is closed");

  // The other modes: one option, typed text, and options or text with per-option notes.
  const base = { prompt: "Pick the log format for the new service; it decides the parser.", options: [
    { id: "json", label: "JSON lines", description: "One object per line", recommended: true },
    { id: "logfmt", label: "logfmt" },
  ] };
  const modes = [
    { ask: { ...base, title: "Log format (single)", selection_mode: "single" }, act: async () => {
        check(await frame().getByLabel("JSON lines").isChecked(), "single: the recommended option is preselected");
        await frame().getByLabel("logfmt").check();
      }, expect: (r) => r.action_status === "selected" && r.selection.selected_ids.join() === "logfmt" },
    { ask: { ...base, title: "Log format (text)", selection_mode: "text_input", options: [], placeholder: "e.g. JSON" }, act: async () => {
        check(await frame().getByRole("button", { name: "Answer" }).isDisabled(), "text: nothing typed, nothing to send");
        await frame().getByPlaceholder("e.g. JSON").fill("CBOR frames");
      }, expect: (r) => r.action_status === "custom_input" && r.selection.custom_input === "CBOR frames" },
    { ask: { ...base, title: "Log format (hybrid)", selection_mode: "hybrid", allow_option_annotations: true }, act: async () => {
        await frame().getByLabel("Note on JSON lines").fill("with a schema");
      }, expect: (r) => r.selection.selected_ids.join() === "json" && r.selection.option_annotations?.json === "with a schema" },
  ];
  for (const m of modes) {
    const call = host.callTool({ name: "provide_choice", arguments: m.ask }, undefined, { timeout: 120_000 });
    await render("ui://mooring/choice.html", m.ask);
    await frame().getByText(m.ask.title).waitFor({ timeout: 10_000 });
    await m.act();
    await frame().getByRole("button", { name: "Answer" }).click();
    const r = (await call).structuredContent;
    check(m.expect(r), `${m.ask.title}: ${JSON.stringify(r)}`);
  }
  facts.modes = modes.length + 1;

  // The project picker: the session's project, picked in the conversation.
  for (const name of ["Alpha", "Beta"]) await host.callTool({ name: "create_project", arguments: { name } });
  const selecting = host.callTool({ name: "select_project_for_session", arguments: {} }, undefined, { timeout: 120_000 });
  for (const theme of ["light", "dark"]) {
    await render("ui://mooring/project-picker.html", {}, theme);
    await frame().getByText("Which project is this session in?").waitFor({ timeout: 10_000 });
    await frame().getByRole("button", { name: /Beta/ }).waitFor();
    await axe(`app-picker-${theme}`);
    const [scroll, view] = await page.frames()[1].evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
    check(scroll <= view, `the picker scrolls sideways in a 300 px column: ${scroll} > ${view}`);
  }
  await frame().getByRole("button", { name: /Beta/ }).click();
  const selected = await selecting;
  await page.evaluate((r) => window.bridge.sendToolResult(r), selected);
  check(selected.structuredContent?.selected === "beta", `select: ${JSON.stringify(selected.structuredContent)}`);
  await frame().getByText("This session works in Beta").waitFor();
  const active = (await host.callTool({ name: "active_project", arguments: {} })).structuredContent;
  check(active.active_project === "beta", `active: ${JSON.stringify(active)}`);
  // Who decided, as the person's dashboard lists the session.
  const token = readFileSync(`${dataDir}/token`, "utf8").trim();
  const api = await fetch(new URL("/api/v1/sessions", url), { headers: { Authorization: `Bearer ${token}` } });
  const listed = (await api.json()).sessions.filter((x) => x.client_name === "test-host");
  check(listed.some((x) => x.project === "beta" && x.decided_by === "app"), `sessions: ${JSON.stringify(listed)}`);
  facts.picked = { project: "beta", decided_by: "app" };

  await host.close();
  await plain.close();
  console.log(JSON.stringify({ ok: true, ...facts }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, error: String(e?.stack || e), ...facts }));
  if (page) await page.screenshot({ path: process.env.SCREENSHOT || "/tmp/mooring-apps-failure.png" }).catch(() => {});
  process.exitCode = 1;
} finally {
  await browser.close();
}
