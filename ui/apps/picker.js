// Which project this session works in, picked here by the person: the projects with
// their stats, the recommendation and why, and "New project here".
const PICK = "pick_project_in_app";
let opened = false;

async function open() {
  if (opened) return;
  opened = true;
  // The call may not have opened its pick yet: look again briefly before binding directly.
  let r;
  for (let i = 0; i < 8; i++) {
    r = await callTool(PICK, {});
    if (r.waiting) break;
    await sleep(250);
  }
  draw(r);
}

function draw(r) {
  const problem = el("p", { className: "error", role: "alert" });
  const { node: list, buttons } = projectList(r.projects, r.recommended, (p) => answer({ project: p.slug }, p.name));
  const parts = [el("h1", { textContent: "Which project is this session in?" })];
  if (r.recommended) parts.push(el("p", { className: "muted", textContent: `Recommended: ${r.recommended}, ${r.why}.` }));
  parts.push(list);
  if (r.here) {
    const name = el("input", { type: "text", id: "new-name", value: r.here.split(/[\\/]/).filter(Boolean).pop() || "" });
    const create = el("button", { type: "button", textContent: "New project here" });
    create.addEventListener("click", () => name.value.trim() ? answer({ create: name.value.trim() }, name.value.trim()) : (problem.textContent = "Give the new project a name."));
    parts.push(el("label", { className: "block", htmlFor: "new-name", textContent: `New project in ${r.here}` }), name, el("div", { className: "row" }, create));
  }
  parts.push(problem);
  show(...parts);

  async function answer(args, label) {
    buttons.forEach((b) => { b.disabled = true; });
    try {
      const done = await callTool(PICK, { token: r.token, ...args });
      show(el("p", { className: "done", textContent: `This session works in ${label} (${done.picked}).` }));
      tellModel(`The person picked the project "${done.picked}" for this session in the conversation.${done.remembered ? "" : ` Pass "project": "${done.picked}" on project-scoped calls.`}`);
    } catch (e) {
      problem.textContent = e.message;
      buttons.forEach((b) => { b.disabled = false; });
    }
  }
}

host.on("ui/notifications/tool-input", ({ arguments: args = {} }) => { if (!args.project) open(); });
host.on("ui/notifications/tool-result", (r) => {
  const s = r.structuredContent || {};
  if (s.selected) { opened = true; show(el("p", { className: "done", textContent: `This session works in ${s.selected}.` })); }
  else open();
});
connect("mooring-project-picker").catch((e) => show(el("p", { className: "error", textContent: e.message })));
