//! The MCP server handler: a hand-written `ServerHandler` that reads the caller, parses
//! arguments, gates project-scoped tools and delegates to small tool functions.

// Roots and logging are deprecated from MCP 2026-07-28, and 2025-era clients still use them.
#![allow(deprecated)]

pub mod apps;
mod ask;
pub mod catalog;
mod choice_form;
pub mod gate;
pub mod outputs;
pub mod params;
pub mod resources;
pub mod results;
mod roots;
mod schema;
mod selection;
pub mod tools;
mod tools_app;
pub(crate) mod tools_choice;
mod tools_claims;
mod tools_handover;
mod tools_memory;
mod tools_projects;
mod tools_session;

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult, GetPromptRequestParams,
    GetPromptResponse, Implementation, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ServerCapabilities, ServerConfig, SetLevelRequestParams, SubscribeRequestParams, Tool,
    UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use serde::de::DeserializeOwned;

use crate::caller::Caller;
use crate::state::{AppState, LocalContext};
use gate::Gate;
use tools::{Call, Stop};

/// One handler value per legacy session or per stateless request; it holds only the
/// shared state, never per-agent facts.
#[derive(Clone)]
pub struct MooringMcp {
    state: Arc<AppState>,
    /// The hints of the one client on this connection (stdio, a shim's socket).
    local: Option<Arc<LocalContext>>,
}

impl MooringMcp {
    /// A handler over shared state.
    pub fn new(state: Arc<AppState>) -> Self {
        let local = state.local.clone();
        Self { state, local }
    }

    /// A handler for one connection whose client is known by `local`.
    pub fn for_connection(state: Arc<AppState>, local: Arc<LocalContext>) -> Self {
        Self { state, local: Some(local) }
    }
}

fn not_found(uri: &str) -> ErrorData {
    ErrorData::resource_not_found(
        format!("no resource '{uri}'; resources/list shows what Mooring serves"),
        Some(serde_json::json!({ "uri": uri })),
    )
}

/// Parse arguments into a tool's parameter type, or the `isError` result explaining why not.
fn parse<P: DeserializeOwned>(
    tool: &str,
    request: &CallToolRequestParams,
) -> Result<P, Box<CallToolResponse>> {
    let args = serde_json::Value::Object(request.arguments.clone().unwrap_or_default());
    serde_path_to_error::deserialize(args).map_err(|e| {
        let path = e.path().to_string();
        let field = (path != ".").then_some(path);
        Box::new(results::bad_arguments(tool, field.as_deref(), &e.inner().to_string()).into())
    })
}

impl ServerHandler for MooringMcp {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .enable_completions()
            .enable_prompts()
            .enable_resources()
            .enable_resources_subscribe()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("mooring", env!("CARGO_PKG_VERSION")).with_title("Mooring"))
            .with_instructions(catalog::INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let caller = Caller::from_ctx(&ctx, self.local.as_deref());
        let tools = if caller.apps { apps::tools() } else { catalog::tools() }.to_vec();
        Ok(ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        // The apps' tools have no output schema to check; the rest are the catalog's.
        catalog::tools().iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let caller = Caller::from_ctx(&ctx, self.local.as_deref());
        let Some(def) = tools::find(&request.name) else {
            return Err(ErrorData::invalid_params(
                format!("unknown tool '{}'; tools/list shows the tools Mooring has", request.name),
                None,
            ));
        };
        let call = Call { mcp: self, caller: &caller, ctx: &ctx, request: &request, def };
        match (def.run)(&call).await {
            Ok(response) => Ok(response),
            Err(Stop::Answer(response)) => Ok(*response),
            Err(Stop::Protocol(e)) => Err(e),
        }
    }

    async fn set_level(
        &self,
        _request: SetLevelRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        // Mooring sends no log notifications of its own; accepting the level keeps
        // 2025-era clients that set one working.
        Ok(())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let mut list = resources::list(&self.state)?;
        if Caller::from_ctx(&ctx, self.local.as_deref()).apps {
            list.extend(apps::resources());
        }
        Ok(ListResourcesResult::with_all_items(list))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(resources::templates()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if let Some(r) = resources::read(&self.state, &request.uri)? {
            return Ok(r.into());
        }
        // Served to any client that asks (a host may read before it lists).
        if let Some(r) = apps::read(&request.uri) {
            return Ok(r.into());
        }
        Err(not_found(&request.uri))
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if resources::is_ours(&request.uri) {
            if let Some(session) = Caller::from_ctx(&ctx, self.local.as_deref()).session_id {
                self.state.subscribe(session, request.uri.clone(), ctx.peer.clone());
            }
            return Ok(());
        }
        Err(not_found(&request.uri))
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if let Some(session) = Caller::from_ctx(&ctx, self.local.as_deref()).session_id {
            self.state.unsubscribe(&session, &request.uri);
        }
        if resources::is_ours(&request.uri) {
            return Ok(());
        }
        Err(not_found(&request.uri))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(resources::prompts()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let args = request.arguments.clone().unwrap_or_default();
        if let Some(p) = resources::prompt(&self.state, &request.name, &args)? {
            return Ok(p.into());
        }
        Err(ErrorData::invalid_params(
            format!("unknown prompt '{}'; prompts/list shows the prompts Mooring has", request.name),
            None,
        ))
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        resources::complete(&self.state, &request)
    }

    async fn on_initialized(&self, ctx: NotificationContext<RoleServer>) {
        roots::after_initialize(&self.state, self.local.as_deref(), &ctx);
    }

    async fn on_roots_list_changed(&self, ctx: NotificationContext<RoleServer>) {
        roots::changed(&self.state, self.local.as_deref(), &ctx);
    }
}

impl MooringMcp {
    async fn gate(
        &self,
        caller: &Caller,
        ctx: &RequestContext<RoleServer>,
        explicit: Option<&str>,
        request: &CallToolRequestParams,
    ) -> Result<Gate, ErrorData> {
        roots::refresh(&self.state, caller, ctx).await;
        let (responses, request_state) = (request.input_responses.as_ref(), request.request_state.as_deref());
        match gate::require_project(&self.state, caller, ctx, explicit, responses, request_state).await {
            Ok(g) => Ok(g),
            Err(e) => Ok(Gate::Stop(results::fail(&e).into())),
        }
    }
}
