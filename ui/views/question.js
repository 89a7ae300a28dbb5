// A question's answer fields: one view for both surfaces that draw a question in a
// browser, the page on 127.0.0.1 (ui/choice.html) and the app inside the conversation
// (ui/apps/choice.js). Each surface adds its own title, buttons, countdown and transport.
"use strict";

/** "2", or "1 to 3": how many options a multiple choice takes. */
function questionRange(c) {
  const min = Math.max(c.min, 1);
  return min === c.max ? String(min) : `${min} to ${c.max}`;
}

/**
 * The fields of checked question `c` ({request, mode, min, max}). `opts.settings`: the
 * person's settings (descriptions, placeholders and note fields, each shown unless
 * false); `opts.preselectRecommended`: with no default selection, start on the
 * recommended options; `opts.onChange()` after any change; `opts.onPick()` when an
 * option of a single choice is picked. Returns `{ node, why, answer }`: `why()` is ""
 * when the answer can be sent, else the reason; `answer()` is what the broker takes.
 */
function questionFields(c, opts = {}) {
  const q = c.request, mode = c.mode, s = opts.settings || {};
  const multi = mode === "multi" || mode === "hybrid";
  const make = (tag, props = {}, ...kids) => {
    const n = Object.assign(document.createElement(tag), props);
    n.append(...kids.filter((k) => k !== null && k !== undefined));
    return n;
  };
  const tag = (n, id) => { n.dataset.testid = id; return n; };
  const options = q.options || [];
  const defaults = q.default_selection_ids || [];
  const chosen = new Set(defaults.length || !opts.preselectRecommended ? defaults
    : options.filter((o) => o.recommended).slice(0, multi ? c.max : 1).map((o) => o.id));
  const notesOn = s.capture_annotations !== false;
  const node = make("div");
  const inputs = [], notes = {};

  const picked = () => inputs.filter((i) => i.checked).map((i) => i.value);
  // A multiple choice at its maximum: the other options wait until one is unticked.
  const limit = () => {
    if (!multi) return;
    const n = picked().length;
    for (const i of inputs) i.disabled = !i.checked && n >= c.max;
  };
  const changed = () => { limit(); opts.onChange?.(); };

  if (mode !== "text_input") {
    const set = tag(make("fieldset", {}, tag(make("legend", {
      textContent: multi ? `Choose ${questionRange(c)}` : "Choose one",
    }), "limits")), "options");
    for (const o of options) {
      const id = `o-${o.id}`;
      const input = tag(make("input", { type: multi ? "checkbox" : "radio", name: "choice", id, value: o.id, checked: chosen.has(o.id) }), `option-${o.id}`);
      input.addEventListener("change", () => { changed(); if (mode === "single" && input.checked) opts.onPick?.(); });
      inputs.push(input);
      const badge = o.recommended ? make("span", { className: "rec badge", textContent: "recommended" }) : null;
      const row = make("div", { className: "opt option" }, input, make("label", { htmlFor: id }, o.label, badge));
      if (o.description && s.show_descriptions !== false) row.append(make("span", { className: "desc", textContent: o.description }));
      if (q.allow_option_annotations && notesOn) {
        const note = tag(make("input", { type: "text", className: "note", autocomplete: "off", placeholder: "Note on this option (optional)", ariaLabel: `Note on ${o.label}` }), `note-${o.id}`);
        notes[o.id] = note;
        row.append(note);
      }
      set.append(row);
    }
    node.append(set);
  }
  let text = null;
  if (mode === "text_input" || mode === "hybrid") {
    text = tag(make("input", { type: "text", id: "custom", autocomplete: "off", placeholder: (s.show_placeholder !== false && q.placeholder) || "" }), "text-input");
    text.addEventListener("input", changed);
    node.append(make("label", { className: "block", htmlFor: "custom", textContent: mode === "hybrid" ? "Or in your own words" : "Your answer" }), text);
  }
  let note = null;
  if (q.allow_global_annotation && notesOn) {
    note = tag(make("textarea", { id: "note", rows: 2 }), "global-note");
    node.append(make("label", { className: "block", htmlFor: "note", textContent: "Note (optional)" }), note);
  }
  limit();

  function why() {
    const n = picked().length, typed = text?.value.trim();
    const min = Math.max(c.min, 1);
    if (mode === "single" && n !== 1) return "Choose one option.";
    if (mode === "multi" && (n < min || n > c.max)) return `Choose ${questionRange(c)} options.`;
    if (mode === "hybrid" && !typed && (n < min || n > c.max)) return `Choose ${questionRange(c)} options, or answer in your own words.`;
    if (mode === "text_input" && !typed) return "Type an answer.";
    return "";
  }

  function answer() {
    const ids = mode === "text_input" ? [] : picked();
    return {
      selected_ids: ids,
      custom_input: text?.value.trim() || null,
      option_annotations: Object.fromEntries(Object.entries(notes)
        .filter(([k, n]) => n.value.trim() && ids.includes(k)).map(([k, n]) => [k, n.value.trim()])),
      global_annotation: note?.value.trim() || null,
    };
  }

  return { node, why, answer };
}
