//! The tool list an agent's model sees (name, description and input schema of every
//! tool — what Claude Code sends its model up front) stays within its token budget,
//! counted with the o200k tokenizer.

/// The budget for the model-visible part of the tool list, in o200k tokens. It was
/// 3,000 for 20 tools; `claim` and `tell_session` (sessions sharing a checkout) cost 243
/// tokens, of which trimming what the other tools' schemas already said won back 142
/// (the project argument's note on sessionless clients, said once in the instructions).
const BUDGET: usize = 3_150;

#[test]
fn the_model_visible_tool_list_stays_within_its_budget() {
    let tools = mooring_server::mcp::catalog::tools();
    let visible: Vec<serde_json::Value> = tools
        .iter()
        .map(|t| serde_json::json!({ "name": t.name, "description": t.description, "input_schema": t.input_schema }))
        .collect();
    let text = serde_json::to_string(&visible).unwrap();
    let tokens = mooring_core::memory::preamble::count_tokens(&text);
    let mut per_tool: Vec<(usize, String)> = visible
        .iter()
        .map(|v| {
            (
                mooring_core::memory::preamble::count_tokens(&v.to_string()),
                v["name"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    per_tool.sort_by(|a, b| b.cmp(a));
    eprintln!("model-visible tool list: {tokens} tokens, {} characters; per tool: {per_tool:?}", text.len());
    assert!(
        tokens <= BUDGET,
        "the model-visible tool list is {tokens} tokens, over the {BUDGET} budget: {per_tool:?}"
    );
}
