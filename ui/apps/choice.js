// The question, drawn from provide_choice's input while the call waits (or from its
// pending result where the host draws only then), answered here by the person.
const ANSWER = "answer_question_in_app";
let asked = null; // { token, question, remaining_seconds }
let finished = false;

async function open(args) {
  // The call may not have opened the question yet when the input arrives: ask again.
  for (let i = 0; i < 40 && !asked && !finished; i++) {
    try {
      const r = await callTool(ANSWER, args);
      if (r.response && r.response.action_status !== "pending") return final(r.response);
      asked = r;
      return draw();
    } catch (e) {
      if (e.code !== "NOT_FOUND") return show(el("p", { className: "error", role: "alert", textContent: e.message }));
      await sleep(250);
    }
  }
}

function final(response) {
  finished = true;
  show(el("p", { className: "done", textContent: response.selection?.summary || "Answered." }));
}

function draw() {
  const c = asked.question, q = c.request, mode = c.mode;
  const multi = mode === "multi" || mode === "hybrid";
  const chosen = new Set(q.default_selection_ids.length ? q.default_selection_ids
    : q.options.filter((o) => o.recommended).slice(0, multi ? c.max : 1).map((o) => o.id));
  const notes = {};
  const form = el("form", { noValidate: true });
  form.append(el("h1", { id: "q-title", textContent: q.title }), el("p", { textContent: q.prompt }));
  if (mode !== "text_input") {
    const set = el("fieldset", {}, el("legend", { textContent: multi ? `Choose ${c.min === c.max ? c.min : `${c.min} to ${c.max}`}` : "Choose one" }));
    for (const o of q.options) {
      const id = `o-${o.id}`;
      const input = el("input", { type: multi ? "checkbox" : "radio", name: "choice", id, value: o.id, checked: chosen.has(o.id) });
      const label = el("label", { htmlFor: id }, o.label, o.recommended ? el("span", { className: "badge", textContent: "Recommended" }) : null);
      const row = el("div", { className: "opt" }, input, label);
      if (o.description) row.append(el("span", { className: "desc", textContent: o.description }));
      if (q.allow_option_annotations) {
        const note = el("input", { type: "text", className: "note", placeholder: "Note on this option (optional)", ariaLabel: `Note on ${o.label}` });
        note.addEventListener("input", () => { notes[o.id] = note.value; });
        row.append(note);
      }
      input.addEventListener("change", check);
      set.append(row);
    }
    form.append(set);
  }
  let text = null;
  if (mode === "text_input" || mode === "hybrid") {
    text = el("input", { type: "text", id: "custom", placeholder: q.placeholder || "Your answer" });
    form.append(el("label", { className: "block", htmlFor: "custom", textContent: mode === "hybrid" ? "Or in your own words" : "Your answer" }), text);
    text.addEventListener("input", check);
  }
  let note = null;
  if (q.allow_global_annotation) {
    note = el("textarea", { id: "note", rows: 2 });
    form.append(el("label", { className: "block", htmlFor: "note", textContent: "Note (optional)" }), note);
  }
  const problem = el("p", { className: "error", role: "alert" });
  const left = el("span", { className: "muted", id: "left" });
  const submit = el("button", { type: "submit", className: "primary", textContent: "Answer" });
  const cancel = el("button", { type: "button", textContent: "Cancel" });
  form.append(problem, el("div", { className: "row" }, submit, cancel, left));
  show(form);

  const picked = () => [...form.querySelectorAll("input[name=choice]:checked")].map((i) => i.value);
  function check() {
    const n = picked().length, typed = text?.value.trim();
    let why = "";
    if (mode === "single" && n !== 1) why = "Choose one option.";
    if (mode === "multi" && (n < c.min || n > c.max)) why = `Choose ${c.min === c.max ? c.min : `${c.min} to ${c.max}`} options.`;
    if (mode === "hybrid" && !typed && (n < c.min || n > c.max)) why = `Choose ${c.min} to ${c.max} options, or answer in your own words.`;
    if (mode === "text_input" && !typed) why = "Type an answer.";
    submit.disabled = !!why;
    submit.title = why;
    return why;
  }
  check();
  let remaining = asked.remaining_seconds;
  const tick = () => {
    if (finished) return;
    left.textContent = remaining > 0 ? `${remaining}s left` : "Time is up";
    if (remaining-- <= 0) { submit.disabled = true; return; }
    setTimeout(tick, 1000);
  };
  tick();

  async function send(answer) {
    submit.disabled = cancel.disabled = true;
    try {
      const r = await callTool(ANSWER, { token: asked.token, answer });
      final(r.response);
      tellModel(`The person answered Mooring's question "${q.title}" in the conversation: ${r.response.selection.summary}`);
    } catch (e) {
      problem.textContent = e.message;
      cancel.disabled = false;
      check();
    }
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const why = check();
    if (why) { problem.textContent = why; return; }
    const typed = text?.value.trim();
    send({
      selected_ids: mode === "text_input" ? [] : picked(),
      custom_input: typed || null,
      option_annotations: Object.fromEntries(Object.entries(notes).filter(([k, v]) => v.trim() && picked().includes(k))),
      global_annotation: note?.value.trim() || null,
    });
  });
  cancel.addEventListener("click", () => send({ cancel: true }));
}

host.on("ui/notifications/tool-input", ({ arguments: args = {} }) => {
  if (asked || finished) return;
  if (args.session_id && !args.title) open({ session_id: args.session_id });
  else open({ question: args });
});
host.on("ui/notifications/tool-cancelled", () => {
  if (!finished && !asked) show(el("p", { className: "muted", textContent: "The agent stopped asking." }));
});
host.on("ui/notifications/tool-result", (r) => {
  const s = r.structuredContent || {};
  if (r.isError) { if (!asked) show(el("p", { className: "error", textContent: r.content?.[0]?.text || "The question was refused." })); return; }
  if (s.action_status && s.action_status !== "pending" && s.action_status !== "pending_terminal_launch") return final(s);
  if (!asked && s.selection?.session_id) open({ session_id: s.selection.session_id });
});
connect("mooring-question").catch((e) => show(el("p", { className: "error", textContent: e.message })));
