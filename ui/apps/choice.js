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
  const c = asked.question, q = c.request;
  const form = el("form", { noValidate: true });
  const fields = questionFields(c, { preselectRecommended: true, onChange: check });
  const problem = el("p", { className: "error", role: "alert" });
  const left = el("span", { className: "muted", id: "left" });
  const submit = el("button", { type: "submit", className: "primary", textContent: "Answer" });
  const cancel = el("button", { type: "button", textContent: "Cancel" });
  form.append(el("h1", { id: "q-title", textContent: q.title }), el("p", { textContent: q.prompt }), fields.node,
    problem, el("div", { className: "row" }, submit, cancel, left));
  show(form);

  function check() {
    const why = fields.why();
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
    send(fields.answer());
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
