// The projects a session may work in, to pick one: one view for both surfaces that draw
// the picker in a browser, the page on 127.0.0.1 (ui/pick.html) and the app inside the
// conversation (ui/apps/picker.js). Each surface adds its own heading, "new project" and
// transport.
"use strict";

/** A project in one line: its slug, its memory, when it was last used, its code paths. */
function projectFacts(p) {
  const s = p.stats || {};
  const parts = [p.slug, `${s.decisions ?? 0} decisions`, `${s.open_blockers ?? 0} open blockers`, `${s.memory_total ?? 0} entries`];
  if (p.last_used) parts.push(`last used ${p.last_used}`);
  const paths = (p.code_paths || []).map((c) => c.path + (c.state === "missing" ? " (missing)" : "")).join(", ");
  if (paths) parts.push(paths);
  return parts.join(" · ");
}

/**
 * The list of `projects`, the `recommended` one first and marked; `onPick(project)` when
 * the person clicks one. Returns `{ node, buttons }` (a surface disables the buttons
 * while its answer is on the way, and may hide rows by `dataset.search`).
 */
function projectList(projects, recommended, onPick) {
  const make = (tag, props = {}, ...kids) => {
    const n = Object.assign(document.createElement(tag), props);
    n.append(...kids.filter((k) => k !== null && k !== undefined));
    return n;
  };
  const node = make("ul", { className: "projects", ariaLabel: "Projects" });
  const buttons = [];
  const ordered = [...projects].sort((a, b) => (b.slug === recommended) - (a.slug === recommended));
  for (const p of ordered) {
    const rec = p.slug === recommended;
    const b = make("button", { type: "button", className: "project" + (rec ? " primary" : "") },
      `${p.name}`, rec ? make("span", { className: "rec badge", textContent: "recommended" }) : null,
      make("small", { textContent: projectFacts(p) }));
    b.dataset.testid = `project-${p.slug}`;
    b.dataset.search = `${p.slug} ${p.name} ${p.description || ""}`.toLowerCase();
    b.addEventListener("click", () => onPick(p));
    buttons.push(b);
    node.append(make("li", {}, b));
  }
  return { node, buttons };
}
